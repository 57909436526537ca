// Run before `npm install`, `npm start`, `npm run cli` and `npm test` (.npmrc keeps npm silent, so npm's own
// engines warning would never show): on an older Node.js the service dies on its first
// import (node:sqlite is built in from Node 22.13; we support 24 and 26) with a stack trace that
// does not say what to do. Said here in one line, exit code 2 as for the other start errors.
// Plain JavaScript on purpose: it must run on any Node.js, before anything is compiled.
const SUPPORTED_FROM = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < SUPPORTED_FROM) {
  process.stderr.write(
    `This service needs Node.js ${SUPPORTED_FROM} or newer (this is ${process.version}): install Node.js 24 LTS (https://nodejs.org, or \`nvm install 24\`), then run npm install and the command again.\n`,
  );
  process.exit(2);
}
