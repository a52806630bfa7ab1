/** A valid publish member per platform, as a client writes it: the tests, the fuzz suite and the bench post these. */
export const SAMPLE_POSTS: Readonly<Record<string, Record<string, string>>> = {
  videoshare: { title: 'Launch', description: 'Our launch video' },
  shortvideo: { content: 'Launch day' },
  photoshare: { format: 'reel', content: 'Launch reel' },
  microblog: { content: 'We launched' },
  socialnet: { content: 'We launched today' },
  prosocial: { content: 'Proud to announce our launch' },
};
