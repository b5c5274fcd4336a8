// no-provider-name (DESIGN 13): a channel provider's name ('sandbox', ...) is written only in its adapter
// (apps/server/src/modules/channels/adapters/) and the list of providers (packages/shared/src/channels/
// providers.ts); everywhere else code asks the adapter, so a new provider touches no service. Refused: a
// string that is exactly a provider's name, and a quoted name inside a string or template (SQL such as
// `provider = 'sandbox'`). Words in sentences ("the sandbox is off") and longer names ('sandbox.complete',
// 'sandbox-auto') pass: they compare nothing. eslint.config.js says where the rule does not apply.

export const noProviderName = {
  meta: {
    type: 'problem',
    docs: { description: "A provider's name appears only in its channel adapter and the registry." },
    schema: [
      {
        type: 'object',
        properties: { providers: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      named:
        "The provider name '{{name}}' belongs in modules/channels/adapters/: ask the channel's adapter (adapterFor(channel.provider)) instead of naming its provider.",
    },
  },
  create(context) {
    const providers = context.options[0]?.providers ?? [];
    if (providers.length === 0) return {};
    const exact = new Set(providers);
    const quoted = new RegExp(
      `'(${providers.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})'`,
    );
    const check = (node, text) => {
      if (typeof text !== 'string') return;
      const name = exact.has(text) ? text : quoted.exec(text)?.[1];
      if (name) context.report({ node, messageId: 'named', data: { name } });
    };
    return {
      Literal: (node) => check(node, node.value),
      TemplateElement: (node) => check(node, node.value.cooked ?? node.value.raw),
    };
  },
};
