/**
 * Prints, as JSON, where the Chromium of `@sparticuz/chromium` is: the binary (unpacked from the package into a
 * folder of the temp directory on first use), its fonts, and the shared libraries the package ships for Amazon
 * Linux 2023 (NSS, NSPR, expat), which a fresh Debian lacks too; with them on LD_LIBRARY_PATH the binary needs
 * only glibc and libgcc from the machine.
 *
 * A child process because the package is ESM-only and reads `import.meta.url`, which Jest's CommonJS run cannot
 * load. Several Jest workers may start at once: each unpacks into its own folder and renames it into place, so
 * none ever sees a half-written binary.
 * Usage: node test/browser/sparticuz-chromium.mjs  ->  {"executablePath": ..., "libDir": ..., "fontDir": ...}
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = join(dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '..');
const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8'));
const systemTmp = tmpdir();
const target = join(systemTmp, `pf-sparticuz-chromium-${version}`);

if (!existsSync(join(target, 'chromium'))) {
  const work = await mkdtemp(join(systemTmp, 'pf-sparticuz-unpack-'));
  // The package unpacks into os.tmpdir(), which follows TMPDIR: point it at this process's own folder.
  process.env.TMPDIR = work;
  const { default: chromium, inflate } = await import('@sparticuz/chromium');
  const binary = await chromium.executablePath();
  await inflate(join(packageDir, 'bin', 'al2023.tar.br'));
  if (binary !== join(work, 'chromium')) throw new Error(`unexpected Chromium path ${binary}`);
  // The package's fonts.conf names Lambda's folders; this one names where the fonts are once renamed into place.
  const fontsConf = `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${join(target, 'fonts', 'fonts')}</dir>
  <cachedir>${join(target, 'fonts-cache')}</cachedir>
</fontconfig>
`;
  await writeFile(join(work, 'fonts', 'fonts.conf'), fontsConf);
  try {
    await rename(work, target);
  } catch (err) {
    // Another worker renamed its folder first (ENOTEMPTY/EEXIST): use that one.
    await rm(work, { recursive: true, force: true });
    if (!existsSync(join(target, 'chromium'))) throw err;
  }
}

process.stdout.write(
  JSON.stringify({
    executablePath: join(target, 'chromium'),
    libDir: join(target, 'al2023', 'lib'),
    fontDir: join(target, 'fonts'),
  }),
);
