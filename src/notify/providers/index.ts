import type { ProviderType } from '../../api/index.js';
import type { OutgoingRequest } from '../http-send.js';
import type { Message, ResolvedProvider } from '../message.js';
import {
  alertmanagerRequest,
  discordRequest,
  genericRequest,
  grafanaRequest,
  slackRequest,
  teamsRequest,
} from './chat.js';
import {
  bitbucketStatusRequest,
  giteaStatusRequest,
  githubStatusRequest,
  gitlabStatusRequest,
  type CommitStatusUpdate,
} from './forge.js';

export type { CommitStatusUpdate } from './forge.js';

type MessageBuilder = (p: ResolvedProvider, m: Message) => OutgoingRequest;
type StatusBuilder = (p: ResolvedProvider, u: CommitStatusUpdate) => OutgoingRequest;

const MESSAGE: Partial<Record<ProviderType, MessageBuilder>> = {
  generic: genericRequest,
  slack: slackRequest,
  msteams: teamsRequest,
  discord: discordRequest,
  alertmanager: alertmanagerRequest,
  grafana: grafanaRequest,
};

const STATUS: Partial<Record<ProviderType, StatusBuilder>> = {
  github: githubStatusRequest,
  gitlab: gitlabStatusRequest,
  gitea: giteaStatusRequest,
  bitbucket: bitbucketStatusRequest,
};

/** The request that delivers a grouped message, or undefined for the commit-status providers. */
export const messageRequest = (p: ResolvedProvider, m: Message): OutgoingRequest | undefined =>
  MESSAGE[p.spec.type]?.(p, m);

/** The request that sets a commit's status, or undefined for the message providers. */
export const commitStatusRequest = (p: ResolvedProvider, u: CommitStatusUpdate): OutgoingRequest | undefined =>
  STATUS[p.spec.type]?.(p, u);

/** Where a provider without an address in its spec or Secret sends (only Slack's bot API has one). */
export function defaultAddress(type: ProviderType, token: string | undefined): string | undefined {
  return type === 'slack' && token ? 'https://slack.com/api/chat.postMessage' : undefined;
}
