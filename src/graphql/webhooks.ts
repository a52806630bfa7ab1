import { getWebhookDelivery, getWebhookSecret, listWebhookDeliveries, redeliver } from '../webhooks/service.js';
import { builder } from './builder.js';
import { pageArgs, toConnection } from './connections.js';
import { currentUser } from './context.js';

export const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  description: 'pending while attempts remain; delivered once the endpoint answered 2xx; failed after the last attempt or a refused URL',
  values: ['pending', 'delivered', 'failed'] as const,
});

export const WebhookDeliveryType = builder.prismaObject('WebhookDelivery', {
  description: 'One webhook sent to you, signed as Standard Webhooks says (webhook-id is this id, the same at every attempt and redelivery)',
  fields: (t) => ({
    id: t.exposeID('id'),
    event: t.exposeString('event', { description: 'e.g. project.completed, export.failed, magic_clips.completed' }),
    subjectId: t.exposeString('subjectId', { nullable: true, description: 'the project or export the event is about' }),
    url: t.exposeString('url'),
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status }),
    attempts: t.exposeInt('attempts', { description: 'attempts of the current series (a redelivery starts a new one); at most 8' }),
    lastStatusCode: t.exposeInt('lastStatusCode', { nullable: true, description: 'HTTP status of the last attempt, when one was received' }),
    lastError: t.exposeString('lastError', { nullable: true, description: 'why the last attempt failed' }),
    nextAttemptAt: t.expose('nextAttemptAt', {
      type: 'DateTime',
      nullable: true,
      description: 'when pending: the next attempt, or while one is in flight, when it is presumed lost',
    }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.field({ type: 'JSON', description: 'the JSON body sent', resolve: (d) => d.payload }),
  }),
});

builder.queryFields((t) => ({
  webhookDeliveries: t.connection(
    {
      type: WebhookDeliveryType,
      description: 'Webhooks sent to you, newest first; `after` is the endCursor of the previous page',
      args: { subjectId: t.arg.string({ required: false, description: 'only those about this project or export' }) },
      resolve: async (_root, args, ctx) => {
        return toConnection(await listWebhookDeliveries(ctx.app, currentUser(ctx).id, pageArgs(args), args.subjectId));
      },
    },
    { name: 'WebhookDeliveryConnection' },
    { name: 'WebhookDeliveryEdge' },
  ),
  webhookDelivery: t.field({
    type: WebhookDeliveryType,
    description: 'One webhook sent to you',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => getWebhookDelivery(ctx.app, currentUser(ctx).id, String(id)),
  }),
  webhookSecret: t.string({
    description: 'The secret that signs your webhooks (whsec_ followed by the base64 key): verify `webhook-signature` with it. Keep it private.',
    resolve: (_root, _args, ctx) => getWebhookSecret(ctx.app, currentUser(ctx).id),
  }),
}));

builder.mutationFields((t) => ({
  redeliverWebhook: t.field({
    type: WebhookDeliveryType,
    description:
      'Sends a delivered or failed webhook again, as a new series of attempts with the same webhook-id and body; a pending one is still being attempted (BAD_REQUEST)',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => redeliver(ctx.app, currentUser(ctx).id, String(id)),
  }),
}));
