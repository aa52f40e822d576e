// Builds the package's WebAssembly and its JavaScript glue into pkg/: the probe crate for
// wasm32-unknown-unknown (cargo), then wasm-bindgen-cli, whose version must be the
// wasm-bindgen crate's (installed from crates.io, never a prebuilt binary).
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const wanted = /wasm-bindgen = "=([0-9.]+)"/.exec(readFileSync(join(here, 'Cargo.toml'), 'utf8'))[1];

function run(program, args, options = {}) {
  console.error(`> ${program} ${args.join(' ')}`);
  execFileSync(program, args, { stdio: 'inherit', ...options });
}

let version;
try {
  version = execFileSync('wasm-bindgen', ['--version'], { encoding: 'utf8' }).trim().split(' ')[1];
} catch {
  console.error(`wasm-bindgen is not installed: cargo install wasm-bindgen-cli --version ${wanted}`);
  process.exit(1);
}
if (version !== wanted) {
  console.error(
    `wasm-bindgen ${version} is installed, the crate is ${wanted}: ` +
      `cargo install wasm-bindgen-cli --version ${wanted} --force`,
  );
  process.exit(1);
}

try {
  const installed = execFileSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' });
  if (!installed.split('\n').includes('wasm32-unknown-unknown')) {
    console.error('the Rust target is not installed: rustup target add wasm32-unknown-unknown');
    process.exit(1);
  }
} catch {
  // No rustup: cargo says what is missing.
}
run('cargo', ['build', '-p', 'jtb-wasm', '--target', 'wasm32-unknown-unknown', '--profile', 'wasm'], {
  cwd: root,
});
const target = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const wasm = join(target, 'wasm32-unknown-unknown', 'wasm', 'jtb_wasm.wasm');
const out = join(here, 'pkg');
rmSync(out, { recursive: true, force: true });
mkdirSync(out);
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--out-dir', out, '--out-name', 'jtb', wasm]);
