/** The import page's templates are read back as they were meant: every header maps to its field. */
import { IMPORT_FIELDS, IMPORT_KINDS, IMPORT_TEMPLATES } from '@heizplan/contracts/imports';
import { describe, expect, it } from 'vitest';
import { suggestMapping } from './import-mapping.ts';

describe('import templates', () => {
  for (const kind of IMPORT_KINDS) {
    for (const lang of ['de', 'en'] as const) {
      it(`has a ${lang} ${kind} template whose every column the suggestion maps to its field`, () => {
        const { headers, example } = IMPORT_TEMPLATES[kind][lang];
        expect(Object.keys(headers)).toEqual([...IMPORT_FIELDS[kind]]);
        expect(Object.keys(example)).toEqual([...IMPORT_FIELDS[kind]]);
        expect(suggestMapping(kind, Object.values(headers))).toEqual(headers);
      });
    }
  }
});
