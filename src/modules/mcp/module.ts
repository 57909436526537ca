/** modules/mcp, the area definition (src/modules.ts lists it): the Model Context Protocol server for AI agents. */
import { defineModule } from '../../platform/module.js';
import { collectOperationSchemas } from './operation-schemas.js';
import { mcpRoutes, type McpRouteServices } from './routes.js';
import { operationsCalled } from './tools.js';

export const mcpModule = defineModule<McpRouteServices>({
  area: 'mcp',
  purpose:
    "The Model Context Protocol server (POST /mcp, and `cli mcp` over stdio): AI agents call the API's operations as tools, with the caller's own token.",
  offers: [],
  // its tools call these areas' operations through the API, never their services
  dependsOn: ['calculator', 'lists', 'orders', 'documents', 'pickups', 'products'],
  migrationHistory: [],
  tags: [
    {
      name: 'MCP',
      description:
        'Extension: the Model Context Protocol server for AI agents. Its tools are operations of this API (pricing, pickup points, draft orders, confirmation, labels, tracking, pickups, stock), called with the same token.',
    },
  ],
  // before any area's routes register: the tools take their input schemas from the operations' routes
  requestHooks: (app) => collectOperationSchemas(app, operationsCalled()),
  routes: mcpRoutes,
});
