import { apiError, http, server } from './server.ts';

/** What a form sent (POST `path`) and the answers still to give, one per call (404 once none is left). */
export type Creations = {
  sent: { method: string; path: string; body: unknown }[];
  answers: (() => Response)[];
};

/** Answers a form's POSTs to `path`: first with `first`, then with what the test puts in `answers`. */
export function answerCreations(path: string, first: () => Response): Creations {
  const creations: Creations = { sent: [], answers: [first] };
  server.use(
    http.post(path, async ({ request }) => {
      creations.sent.push({ method: 'POST', path, body: await request.json() });
      return creations.answers.shift()?.() ?? apiError(404, 'not_found', 'Not found.');
    }),
  );
  return creations;
}
