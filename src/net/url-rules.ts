/**
 * Rules that refuse a media URL from its text alone, before anything is fetched:
 * pages of social platforms, and folder or viewer links of file-sharing drives.
 */
import type { PlatformKey } from '../catalog/platforms.js';

/** Domains (and their subdomains) whose URLs are pages, not media files. */
export const SOCIAL_MEDIA_DOMAINS: ReadonlyArray<{ kind: PlatformKey; label: string; domains: readonly string[] }> = [
  {
    kind: 'videoshare',
    label: 'a video-sharing platform',
    domains: ['youtube.com', 'youtu.be', 'youtube-nocookie.com', 'vimeo.com', 'dailymotion.com', 'dai.ly'],
  },
  { kind: 'shortvideo', label: 'a short-video platform', domains: ['tiktok.com'] },
  { kind: 'photoshare', label: 'a photo and reels platform', domains: ['instagram.com', 'instagr.am'] },
  { kind: 'microblog', label: 'a microblogging platform', domains: ['twitter.com', 'x.com', 'threads.net', 'threads.com'] },
  { kind: 'socialnet', label: 'a social network', domains: ['facebook.com', 'fb.com', 'fb.watch'] },
  { kind: 'prosocial', label: 'a professional social network', domains: ['linkedin.com', 'lnkd.in'] },
];

function parse(url: string | URL): URL | null {
  if (url instanceof URL) return url;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** lower case, without the trailing dot of a fully qualified name */
function hostOf(u: URL): string {
  return u.hostname.toLowerCase().replace(/\.$/, '');
}

function onDomain(host: string, domain: string): boolean {
  return host === domain || host.endsWith(`.${domain}`);
}

/** The social platform a URL belongs to, or null. */
export function socialMediaPlatform(url: string | URL): { kind: PlatformKey; label: string; domain: string } | null {
  const u = parse(url);
  if (!u) return null;
  const host = hostOf(u);
  for (const p of SOCIAL_MEDIA_DOMAINS) {
    const domain = p.domains.find((d) => onDomain(host, d));
    if (domain) return { kind: p.kind, label: p.label, domain };
  }
  return null;
}

/** The message for a social platform page, or null. */
export function socialMediaProblem(url: string | URL): string | null {
  const p = socialMediaPlatform(url);
  if (!p) return null;
  return `Links to ${p.label} (${p.domain}) are pages, not media files: send a direct link to the file itself (for example a URL ending in .mp4) or upload the file`;
}

const DIRECT_LINK_HINT = 'send a direct download link to a single file, shared with anyone who has the link';

/**
 * null for a URL that can be a direct single-file download; otherwise why a
 * file-sharing link cannot be fetched and what to send instead.
 */
export function fileSharingProblem(url: string | URL): string | null {
  const u = parse(url);
  if (!u) return null;
  const host = hostOf(u);
  const path = u.pathname;
  const q = u.searchParams;

  // Google Drive and Docs
  if (host === 'drive.google.com') {
    if (/^\/(drive\/(u\/\d+\/)?folders\/|folderview)/.test(path)) {
      return `This is a Google Drive folder link: ${DIRECT_LINK_HINT} (https://drive.google.com/uc?export=download&id=<file id>)`;
    }
    const fileId = /^\/file\/d\/([^/]+)/.exec(path)?.[1] ?? (path === '/open' ? q.get('id') : null);
    if (fileId) {
      return `This is a Google Drive viewer page, not the file: send https://drive.google.com/uc?export=download&id=${fileId} instead (the file must be shared with anyone who has the link)`;
    }
    if (path === '/uc' && q.get('id')) return null;
    return `This Google Drive link is not a single file: ${DIRECT_LINK_HINT} (https://drive.google.com/uc?export=download&id=<file id>)`;
  }
  if (['docs.google.com', 'sheets.google.com', 'slides.google.com'].includes(host)) {
    return 'Google Docs, Sheets and Slides documents are not media files: send a direct link to a video, audio or image file';
  }

  // Dropbox
  if (host === 'dropbox.com' || host === 'www.dropbox.com') {
    if (/^\/(sh|scl\/fo)\//.test(path)) {
      return `This is a Dropbox folder link: share a single file and send its link with dl=1 (https://www.dropbox.com/scl/fi/...?dl=1)`;
    }
    if (/^\/(s|scl\/fi)\//.test(path)) {
      if (q.get('dl') === '1' || q.get('raw') === '1') return null;
      const direct = new URL(u.href);
      direct.searchParams.set('dl', '1');
      return `This Dropbox link opens a preview page: change dl=0 to dl=1 to make it a direct download (${direct.href})`;
    }
    return `This Dropbox link is not a shared file: share a single file and send its link with dl=1 (https://www.dropbox.com/scl/fi/...?dl=1)`;
  }
  if (host === 'db.tt') {
    return 'Dropbox short links open a preview page: send the full shared-file link with dl=1 (https://www.dropbox.com/scl/fi/...?dl=1)';
  }
  // dl.dropboxusercontent.com and dl.dropbox.com serve the file itself

  // OneDrive and SharePoint
  const downloadFlag = q.get('download') === '1';
  if (host === '1drv.ms') {
    if (/^\/f\//.test(path)) return `This is a OneDrive folder link: ${DIRECT_LINK_HINT} (its link with download=1)`;
    return downloadFlag ? null : 'OneDrive short links open a viewer page: send the file\'s "Download" link, or its sharing link with download=1';
  }
  if (host === 'onedrive.live.com') {
    if (/^\/download/i.test(path) || downloadFlag) return null;
    return 'This OneDrive link opens a viewer page: send the file\'s "Download" link (onedrive.live.com/download?...) or its sharing link with download=1';
  }
  if (onDomain(host, 'sharepoint.com')) {
    if (/^\/:f:\//.test(path)) return `This is a SharePoint folder link: ${DIRECT_LINK_HINT} (its link with download=1)`;
    if (/\/_layouts\/15\/download\.aspx$/i.test(path) || downloadFlag) return null;
    return "This SharePoint link opens a viewer page: send the file's sharing link with download=1";
  }

  // Box
  if (host === 'box.com' || onDomain(host, 'box.com')) {
    if (/^\/shared\/static\//.test(path)) return null;
    if (/^\/(folder|s\/[^/]+\/folder)\//.test(path)) return `This is a Box folder link: ${DIRECT_LINK_HINT} (https://app.box.com/shared/static/<id>.mp4)`;
    return 'This Box link opens a shared page, not the file: send the direct link from the shared-link settings (https://app.box.com/shared/static/<id>.mp4)';
  }

  // WeTransfer and Mega
  if (['wetransfer.com', 'we.tl', 'wetransfer.net'].some((d) => onDomain(host, d))) {
    return 'WeTransfer links open a transfer page, not a single file: download the file and upload it, or send a direct download link to it from another host';
  }
  if (['mega.nz', 'mega.co.nz', 'mega.io'].some((d) => onDomain(host, d))) {
    return 'Mega links are encrypted in the browser and cannot be downloaded directly: upload the file, or send a direct download link from another host';
  }
  return null;
}
