import Type from 'typebox';
import type { App } from '../../platform/http.js';
import { Created, errorResponses, IdParams, NoContent } from '../../platform/schemas.js';
import type { EmployeeService } from './employees.js';
import { EmployeeChange, EmployeeInvite, EmployeeView } from './schemas.js';

const tags = ['Employees (extension)'];
const OWNERS_ONLY = 'Only the account token and owners (403 for managers and shop keys).';

/** Employees, their roles and shops (extension). */
export function employeeRoutes(app: App, services: { employees: EmployeeService }): void {
  app.get(
    '/v2/employees',
    {
      schema: {
        operation: { id: 'listEmployees' },
        tags,
        summary: "The account's employees with their roles and shops",
        description: OWNERS_ONLY,
        response: { 200: Type.Array(EmployeeView), ...errorResponses(403) },
      },
    },
    async (request) => services.employees.list(request.scope),
  );

  app.get(
    '/v2/employees/:id',
    {
      schema: {
        operation: { id: 'getEmployee' },
        tags,
        summary: 'Get an employee',
        description: OWNERS_ONLY,
        params: IdParams,
        response: { 200: EmployeeView, ...errorResponses(403, 404) },
      },
    },
    async (request) => services.employees.get(request.scope, request.params.id),
  );

  app.post(
    '/v2/employees',
    {
      schema: {
        operation: { id: 'inviteEmployee' },
        tags,
        summary: 'Invite an employee: an e-mail, a first password, a role and, for a manager, the shops',
        description: `${OWNERS_ONLY} The employee signs in with the e-mail and the password the owner hands them. An e-mail already used is 409.`,
        body: EmployeeInvite,
        response: { 201: Created, ...errorResponses(403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({ id: await services.employees.invite(request.scope, request.body) }),
  );

  app.put(
    '/v2/employees/:id',
    {
      schema: {
        operation: { id: 'changeEmployee' },
        tags,
        summary: "Change an employee's name, role and shops",
        description: `${OWNERS_ONLY} Takes effect on the employee's next request. The last owner cannot become a manager (409 last_owner).`,
        params: IdParams,
        body: EmployeeChange,
        response: { 200: EmployeeView, ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => services.employees.change(request.scope, request.params.id, request.body),
  );

  app.delete(
    '/v2/employees/:id',
    {
      schema: {
        operation: { id: 'removeEmployee' },
        tags,
        summary: 'Remove an employee: their sign-ins stop working at once',
        description: `${OWNERS_ONLY} The last owner cannot be removed (409 last_owner).`,
        params: IdParams,
        response: { 204: NoContent, ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await services.employees.remove(request.scope, request.params.id);
      return reply.code(204).send();
    },
  );
}
