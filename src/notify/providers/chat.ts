import { createHmac } from 'node:crypto';
import type { OutgoingRequest } from '../http-send.js';
import { lines, plainText, title, type Message, type ResolvedProvider } from '../message.js';

const post = (url: string, body: unknown, headers: Record<string, string> = {}): OutgoingRequest => ({
  method: 'POST',
  url,
  headers,
  body: JSON.stringify(body),
});

/**
 * The generic webhook: the whole group as JSON; with a token, `X-Signature: sha256=<hex>` is the
 * HMAC-SHA256 of the exact body under that key (as Flux's generic-hmac provider signs it).
 */
export function genericRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const body = JSON.stringify({
    alert: m.alert,
    severity: m.severity,
    ...(m.revision ? { revision: m.revision } : {}),
    ...(m.summary ? { summary: m.summary } : {}),
    ...(m.link ? { link: m.link } : {}),
    total: m.total,
    errors: m.errors,
    events: m.events,
  });
  const headers: Record<string, string> = p.token
    ? { 'x-signature': `sha256=${createHmac('sha256', p.token).update(body).digest('hex')}` }
    : {};
  return { method: 'POST', url: p.address, headers, body };
}

/**
 * Slack: an incoming webhook (the address) or, with a bot token, chat.postMessage to the channel.
 * Both take `text` (the notification fallback) and Block Kit `blocks`.
 */
export function slackRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const blocks = [
    { type: 'header', text: { type: 'plain_text', text: title(m).slice(0, 150) } },
    { type: 'section', text: { type: 'mrkdwn', text: lines(m).join('\n').slice(0, 3000) } },
    ...(m.link ? [{ type: 'context', elements: [{ type: 'mrkdwn', text: `<${m.link}|Open in FlowOps>` }] }] : []),
  ];
  const text = title(m);
  if (p.token)
    return post(p.address, { channel: p.spec.channel ?? '', text, blocks }, { authorization: `Bearer ${p.token}` });
  return post(p.address, { text, blocks });
}

/** Microsoft Teams through a Workflows webhook: a message with one Adaptive Card attachment. */
export function teamsRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const card = {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    body: [
      {
        type: 'TextBlock',
        text: title(m),
        weight: 'Bolder',
        size: 'Medium',
        wrap: true,
        ...(m.severity === 'error' ? { color: 'Attention' } : {}),
      },
      ...lines(m).map((text) => ({ type: 'TextBlock', text, wrap: true })),
    ],
    ...(m.link ? { actions: [{ type: 'Action.OpenUrl', title: 'Open in FlowOps', url: m.link }] } : {}),
  };
  return post(p.address, {
    type: 'message',
    attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card }],
  });
}

/** Discord's execute-webhook: one embed, red for errors. */
export function discordRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const embed = {
    title: title(m).slice(0, 256),
    description: lines(m).join('\n').slice(0, 4096),
    color: m.severity === 'error' ? 0xd73a49 : 0x28a745,
    ...(m.link ? { url: m.link } : {}),
  };
  return post(p.address, { username: 'FlowOps', content: title(m).slice(0, 2000), embeds: [embed] });
}

/**
 * Alertmanager's API v2 (POST /api/v2/alerts): the group as one alert whose labels say which
 * commit and Alert it is, so Alertmanager's own grouping and silences work on them.
 */
export function alertmanagerRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const labels: Record<string, string> = { alertname: 'FlowOps', severity: m.severity, flowops_alert: m.alert };
  if (m.revision) labels.revision = m.revision;
  const first = m.events[0];
  if (first)
    Object.assign(labels, {
      kind: first.involved.kind,
      namespace: first.involved.namespace,
      ...(m.total === 1 ? { name: first.involved.name, reason: first.reason } : {}),
    });
  const alert = {
    labels,
    annotations: { summary: title(m), description: lines(m).join('\n') },
    startsAt: first?.time ?? new Date().toISOString(),
    ...(m.link ? { generatorURL: m.link } : {}),
  };
  const headers: Record<string, string> = p.token ? { authorization: `Bearer ${p.token}` } : {};
  return post(`${p.address.replace(/\/+$/, '')}/api/v2/alerts`, [alert], headers);
}

/** Grafana's annotations API: one annotation per group, tagged so a dashboard can filter them. */
export function grafanaRequest(p: ResolvedProvider, m: Message): OutgoingRequest {
  const tags = ['flowops', m.severity, ...(m.revision ? [m.revision] : [])];
  const headers: Record<string, string> = p.token ? { authorization: `Bearer ${p.token}` } : {};
  return post(
    `${p.address.replace(/\/+$/, '')}/api/annotations`,
    { time: Date.now(), tags, text: plainText(m) },
    headers,
  );
}
