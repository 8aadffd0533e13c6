// Summarises a V8 .cpuprofile (node --cpu-prof): self time by package and by function.
// Usage: node --import tsx bench/profile-summary.ts <file.cpuprofile> [top]
import { readFileSync } from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number } };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

/** The package (or our own folder) a script URL belongs to. */
export function areaOf(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] ?? url;
  const ours = /\/(src\/[^/]+\/[^/]+|bench|scripts)\//.exec(url);
  if (ours) return ours[1] ?? url;
  if (url.startsWith('node:')) return 'node internals';
  return url === '' ? '(native / GC / idle)' : url;
}

export function summarise(profile: Profile, top = 15): string {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byNode.get(id)?.callFrame;
    if (!frame) continue;
    const area = frame.functionName === '(idle)' ? '(idle)' : areaOf(frame.url);
    byArea.set(area, (byArea.get(area) ?? 0) + us);
    const name = `${frame.functionName || '(anonymous)'} ${area}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  const rows = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`)
      .join('\n');
  return `total ${(total / 1e6).toFixed(1)} s sampled\nby area:\n${rows(byArea)}\nby function (self):\n${rows(byFunction)}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top]');
  console.log(summarise(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(process.argv[3] ?? 15)));
}
