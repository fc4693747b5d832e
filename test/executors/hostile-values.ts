// Template values that attack the script rewrite; shared by script.test.ts and the injection corpus.

/** Values that would run `touch <marker>` if they were ever parsed as shell or python code. */
export const hostile = (m: string): string[] => [
  `$(touch ${m})`,
  `\`touch ${m}\``,
  `; touch ${m}`,
  `a\nb; touch ${m}`,
  `'"; touch ${m}; echo "'`,
  `"); __import__("os").system("touch ${m}"); ("`,
  `'''; __import__("os").system("touch ${m}"); '''`,
  '*',
  '  spaced  out  ',
  '$HOME ${PATH}',
  'a\\b\\n',
];
