/**
 * Route schemas compiled when a route first answers, not at start. Figure: compiling every
 * route's validators and fast-json-stringify serializers (with the Ajv instances it builds for
 * unions) at `ready` held ~35 MB of heap and ~70 MB of RSS in a process whose clients call a
 * few dozen of its ~300 operations (`node --expose-gc bench/memory.ts`). The compilers are
 * Fastify's own (`@fastify/fast-json-stringify-compiler`) and ours (`validation.ts`); only the
 * moment moves. A route's first call pays its compilation once (a few ms for the largest).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's serializer factory, each route's serializer built on its first answer. */
export function lazySerializerFactory(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: ((document: unknown) => string) | undefined;
      return (document: unknown) => {
        serialize ??= compile(route);
        return serialize(document);
      };
    };
  };
}

/** `compile` run on the first call of the function it makes. */
export function compiledOnFirstCall<A, R>(compile: () => (argument: A) => R): (argument: A) => R {
  let compiled: ((argument: A) => R) | undefined;
  return (argument: A) => {
    compiled ??= compile();
    return compiled(argument);
  };
}
