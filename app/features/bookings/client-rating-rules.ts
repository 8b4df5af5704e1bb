/** An artist's words about a client (issue 42, two-way trust): at most this many characters. */
export const CLIENT_COMMENT_MAX = 500;
