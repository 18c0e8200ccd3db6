/**
 * The `unicode-name` package ships no types: its module as an opaque value, which
 * src/extract/python/unicode-names.ts reads through its own interface of the two functions it calls.
 */
declare module 'unicode-name';
