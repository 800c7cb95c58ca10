// Reads a gzip'd pprof file with the npm package pprof-format and prints what a viewer would take from it, one
// line per item, tab-separated, so that a Java test can compare it with the profile that was written:
//   sample_type TYPE/UNIT | period_type TYPE/UNIT | period N | default_sample_type TYPE | time_nanos N
//   mapping FILE start=HEX limit=HEX file_offset=N build_id=STRING has_functions=BOOL
//   sample VALUES thread=LABEL|- FRAME;FRAME... (leaf first; FRAME is NAME or NAME@MAPPING_FILE+0xOFFSET,
//   OFFSET being the address less the mapping's start; SOURCE_FILE:LINE is appended when the function names one)
// Usage: node read-pprof.cjs NODE_MODULES_DIR FILE
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { createRequire } = require('node:module');

const [modules, file] = process.argv.slice(2);
const { Profile } = createRequire(path.join(modules, 'index.js'))('pprof-format');
const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(file)));
const str = (i) => p.stringTable.strings[Number(i)];
const type = (vt) => `${str(vt.type)}/${str(vt.unit)}`;
const byId = (items) => new Map(items.map((x) => [BigInt(x.id), x]));
const mappings = byId(p.mapping);
const locations = byId(p.location);
const functions = byId(p.function);
const out = [];

for (const t of p.sampleType) out.push(`sample_type\t${type(t)}`);
if (p.periodType) out.push(`period_type\t${type(p.periodType)}`);
out.push(`period\t${p.period}`);
out.push(`default_sample_type\t${str(p.defaultSampleType)}`);
out.push(`time_nanos\t${p.timeNanos}`);
for (const m of p.mapping) {
  out.push(`mapping\t${str(m.filename)}\tstart=${BigInt(m.memoryStart).toString(16)}`
    + `\tlimit=${BigInt(m.memoryLimit).toString(16)}\tfile_offset=${m.fileOffset}`
    + `\tbuild_id=${str(m.buildId)}\thas_functions=${m.hasFunctions}`);
}
for (const s of p.sample) {
  const frames = s.locationId.map((id) => {
    const loc = locations.get(BigInt(id));
    const names = loc.line.map((l) => {
      const f = functions.get(BigInt(l.functionId));
      const source = str(f.filename) ? `:${str(f.filename)}:${l.line}` : (Number(l.line) ? `:${l.line}` : '');
      return str(f.name) + source;
    });
    const m = mappings.get(BigInt(loc.mappingId));
    const where = m ? `@${str(m.filename)}+0x${(BigInt(loc.address) - BigInt(m.memoryStart)).toString(16)}` : '';
    return names.join('|') + where;
  });
  const thread = s.label.filter((l) => str(l.key) === 'thread').map((l) => str(l.str));
  out.push(`sample\t${s.value.join(',')}\tthread=${thread.length ? thread.join('|') : '-'}\t${frames.join(';')}`);
}
process.stdout.write(out.join('\n') + '\n');
