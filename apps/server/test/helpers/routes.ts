/** A route as Fastify's route tree lists it. */
export type Route = { method: string; url: string };

/** Fastify's route tree, flattened: "├── /api/x (GET, HEAD)" and nested "│   └── /:id (GET)". */
export function parseRoutes(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([A-Z, ]+)\))?$/u.exec(line.trimEnd());
    if (!match) continue;
    const depth = match[1].length / 4;
    stack.length = depth;
    const url = (stack[depth - 1] ?? '') + match[2];
    stack[depth] = url;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url });
  }
  return routes;
}
