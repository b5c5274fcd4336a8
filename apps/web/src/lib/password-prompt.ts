// Laravel's password confirmation, once for the whole console: a call answered 423
// password_confirmation_required makes the HTTP client ask for the password (the dialog of a mounted
// PasswordPromptHost, components/password-prompt-host.tsx) and send the call again.

/** Resolves true once the password was confirmed, false when the user gave up. */
export type PasswordPrompt = () => Promise<boolean>;

// The innermost mounted host wins.
const prompts: PasswordPrompt[] = [];
let open: Promise<boolean> | null = null;

/** Registers a prompt; the returned function unregisters it (when its host unmounts). */
export function registerPasswordPrompt(prompt: PasswordPrompt): () => void {
  prompts.push(prompt);
  return () => {
    const index = prompts.lastIndexOf(prompt);
    if (index !== -1) prompts.splice(index, 1);
  };
}

/**
 * Asks for the password; several calls refused at once share one dialog. Undefined when no prompt is
 * mounted (the caller then shows the refusal as any other error).
 */
export function askForPassword(): Promise<boolean> | undefined {
  const prompt = prompts.at(-1);
  if (!prompt) return undefined;
  open ??= prompt().finally(() => {
    open = null;
  });
  return open;
}
