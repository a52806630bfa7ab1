/**
 * GET /previews/{caption|hook}/{name}.png: a built-in template's still. The
 * first fetch renders it (about half a second) and stores it; every fetch is
 * sent on to the stored picture's signed link. The stills show the catalogue,
 * not anyone's data, so the links need no key: an <img> can load them, and a
 * list of thirty templates answers at once while its pictures arrive.
 */
import type { FastifyInstance } from 'fastify';
import type { App } from '../app.js';
import { findCaptionTemplate } from '../catalog/caption-templates.js';
import { findHookTitleTemplate } from '../catalog/hook-title-templates.js';
import { captionTemplatePreview, hookTemplatePreview } from '../themes/previews.js';

export function registerPreviewRoutes(fastify: FastifyInstance, app: App): void {
  fastify.get<{ Params: { kind: string; file: string } }>('/previews/:kind/:file', async (req, reply) => {
    const { kind, file } = req.params;
    const name = file.endsWith('.png') ? file.slice(0, -4) : '';
    const caption = kind === 'caption' ? findCaptionTemplate(name) : undefined;
    const hook = kind === 'hook' ? findHookTitleTemplate(name) : undefined;
    if (!caption && !hook) {
      return reply.code(404).send({ error: 'NOT_FOUND', message: `No ${kind === 'hook' ? 'hook-title' : 'caption'} template ${name || file}` });
    }
    const url = caption ? await captionTemplatePreview(app, caption) : await hookTemplatePreview(app, hook!);
    // the stored still's link is signed for days; an hour of caching keeps a gallery's reloads off the service
    return reply.header('cache-control', 'public, max-age=3600').redirect(url, 302);
  });
}
