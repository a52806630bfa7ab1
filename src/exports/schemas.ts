/** The request body of POST /v1/projects/{id}/export (SPEC.md, Limits). */
import { fields, int, num, text } from '../validation.js';

export const exportBody = fields({
  fps: num(1, 60).meta({ description: '1-60; the source frame rate when left out' }),
  width: int(100, 4000).meta({ description: '100-4000; the source width when left out' }),
  height: int(100, 4000).meta({ description: '100-4000; the source height when left out' }),
  webhookUrl: text(2048)
    .refine((raw) => {
      try {
        return raw === undefined || ['http:', 'https:'].includes(new URL(raw).protocol);
      } catch {
        return false;
      }
    }, 'must be a valid http or https URL')
    .meta({ description: 'told when the export completes or fails' }),
});
