// Where table bytes come from. A source answers three questions, each a promise (or a value):
//   list(rules)                -> the file names of the rule set's folder, or null: no folder
//   head(path, length)         -> { size, bytes } (the file's size and its first bytes, at most
//                                 `length`), or null: no such file
//   read(path, offset, length) -> exactly `length` bytes of the file from `offset`
// Paths are `rules/file`, as `jtb gen` lays the tables out. A failed or short read is an error
// naming the file: never a wrong value.

/** The tables in a local directory, read with positioned reads (Node). */
export function directorySource(dir) {
  const fs = import('node:fs/promises');
  const path = import('node:path');
  const within = async (rel) => (await path).join(dir, ...rel.split('/'));
  const read = async (rel, offset, length) => {
    const { open } = await fs;
    const file = await open(await within(rel), 'r');
    try {
      const bytes = new Uint8Array(length);
      let done = 0;
      while (done < length) {
        const { bytesRead } = await file.read(bytes, done, length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      if (done !== length) {
        throw new Error(`${rel}: short read: ${done} of ${length} bytes at ${offset}`);
      }
      return bytes;
    } finally {
      await file.close();
    }
  };
  return {
    describe: () => `directory ${dir}`,
    async list(rules) {
      try {
        return await (await fs).readdir(await within(rules));
      } catch (e) {
        if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
        throw new Error(`${rules}/: cannot list the folder: ${e.message}`);
      }
    },
    async head(rel, length) {
      let size;
      try {
        size = (await (await fs).stat(await within(rel))).size;
      } catch (e) {
        if (e.code === 'ENOENT') return null;
        throw new Error(`${rel}: ${e.message}`);
      }
      return { size, bytes: await read(rel, 0, Math.min(length, size)) };
    },
    read,
  };
}

/** Parses `Content-Range: bytes a-b/size`. */
function contentRange(header) {
  const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(header ?? '');
  return m && { first: Number(m[1]), last: Number(m[2]), size: m[3] === '*' ? null : Number(m[3]) };
}

/**
 * The tables on a static host under `base` (`base/<rules>/<file>`), read with HTTP Range
 * requests. A rule set's folder is listed from the page the host answers for `base/<rules>/`:
 * a directory listing, or the `index.html` that `jtb site` writes there.
 *
 * `ranges`: `'required'` (the default) refuses a host that answers a range with the whole file;
 * `'preferred'` reads such a host's files whole instead (each once, kept up to `wholeBytes`).
 */
export function urlSource(base, { fetch: fetchImpl = globalThis.fetch, ranges = 'required', wholeBytes = 64 << 20 } = {}) {
  if (ranges !== 'required' && ranges !== 'preferred') {
    throw new TypeError(`ranges is 'required' or 'preferred', not ${ranges}`);
  }
  const root = new URL(String(base).endsWith('/') ? String(base) : `${base}/`);
  const urlOf = (rel) => new URL(rel.split('/').map(encodeURIComponent).join('/'), root);
  const failed = (rel, what) => new Error(`${rel}: ${what} (${urlOf(rel)})`);
  const get = async (rel, headers) => {
    try {
      return await fetchImpl(urlOf(rel), { headers });
    } catch (e) {
      throw failed(rel, `the request failed: ${e.message}`);
    }
  };
  /** Files read whole from a host without Range support, most recently used last. */
  const whole = new Map();
  let wholeHeld = 0;
  const keepWhole = (rel, bytes) => {
    whole.set(rel, bytes);
    wholeHeld += bytes.length;
    for (const [old, held] of whole) {
      if (wholeHeld <= wholeBytes || old === rel) break;
      whole.delete(old);
      wholeHeld -= held.length;
    }
  };
  const fromWhole = (rel, bytes, offset, length, allowShort) => {
    whole.delete(rel);
    whole.set(rel, bytes); // most recently used
    const end = allowShort ? Math.min(offset + length, bytes.length) : offset + length;
    if (end > bytes.length) throw failed(rel, `short read: the file has ${bytes.length} bytes, ${offset + length} asked`);
    return { size: bytes.length, bytes: bytes.subarray(offset, end) };
  };
  /** Whether the host answered a range with a whole file, and the whole files being fetched. */
  let ignoresRange = false;
  const fetching = new Map();
  const wholeFile = async (rel, response) => {
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return null;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw failed(rel, `HTTP ${response.status}`);
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    const said = response.headers.get('content-length');
    if (said !== null && Number(said) !== bytes.length) throw failed(rel, `short read: ${bytes.length} of ${said} bytes`);
    keepWhole(rel, bytes);
    return bytes;
  };
  const ranged = async (rel, offset, length, allowShort) => {
    const held = whole.get(rel);
    if (held) return fromWhole(rel, held, offset, length, allowShort);
    if (ignoresRange) {
      // One fetch of each whole file, however many ranges of it are asked at once.
      let pending = fetching.get(rel);
      if (!pending) {
        pending = get(rel, {}).then((r) => wholeFile(rel, r)).finally(() => fetching.delete(rel));
        fetching.set(rel, pending);
      }
      const bytes = await pending;
      return bytes && fromWhole(rel, bytes, offset, length, allowShort);
    }
    const response = await get(rel, { Range: `bytes=${offset}-${offset + length - 1}` });
    if (response.status === 404 || response.status === 410) {
      await response.body?.cancel();
      return null;
    }
    if (response.status === 200) {
      // The whole file: the host ignores Range (a 206 answers any range that starts in the file).
      if (ranges === 'preferred') {
        ignoresRange = true;
        return fromWhole(rel, await wholeFile(rel, response), offset, length, allowShort);
      }
      await response.body?.cancel();
      throw failed(rel, 'the host does not answer Range requests (it sent the whole file): serve the tables from a host with Range support');
    }
    if (response.status !== 206) {
      await response.body?.cancel();
      throw failed(rel, `HTTP ${response.status} for bytes ${offset}-${offset + length - 1}`);
    }
    const range = contentRange(response.headers.get('content-range'));
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (range === null || range.first !== offset || range.last - range.first + 1 !== bytes.length) {
      throw failed(rel, `a range answer without a matching Content-Range for bytes ${offset}-${offset + length - 1}`);
    }
    if (bytes.length !== length && !(allowShort && range.size !== null && range.last + 1 === range.size)) {
      throw failed(rel, `short read: ${bytes.length} of ${length} bytes at ${offset}`);
    }
    return { size: range.size, bytes };
  };
  return {
    describe: () => `${root}`,
    async list(rules) {
      const response = await get(`${rules}/`, {});
      if (response.status === 404 || response.status === 410) {
        await response.body?.cancel();
        return null;
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw failed(`${rules}/`, `HTTP ${response.status} listing the folder`);
      }
      const page = await response.text();
      const names = new Set();
      for (const m of page.matchAll(/href\s*=\s*["']([^"'?#]+)["']/gi)) {
        const name = decodeURIComponent(m[1].split('/').filter(Boolean).pop() ?? '');
        if (/^[^/]+\.[a-z]+$/.test(name) && !name.endsWith('.html')) names.add(name);
      }
      return [...names];
    },
    async head(rel, length) {
      const got = await ranged(rel, 0, length, true);
      if (got !== null && got.size === null) throw failed(rel, 'the host did not say the file\'s size');
      return got;
    },
    async read(rel, offset, length) {
      const got = await ranged(rel, offset, length, false);
      if (got === null) throw failed(rel, 'the file is gone (404)');
      return got.bytes;
    },
  };
}

/** A source the caller wrote: each of its answers checked before use. */
function customSource(source) {
  for (const method of ['list', 'read']) {
    if (typeof source[method] !== 'function') {
      throw new TypeError(`a source object needs a ${method}() method (and size() or head())`);
    }
  }
  const asBytes = (value, rel, what) => {
    if (value instanceof Uint8Array) return value;
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    throw new Error(`${rel}: the source's ${what} gave no bytes`);
  };
  /** The source's answer, its failure named by the file. */
  const call = async (rel, answer) => {
    try {
      return await answer();
    } catch (e) {
      throw new Error(`${rel}: ${e?.message ?? e}`);
    }
  };
  const read = async (rel, offset, length) => {
    const bytes = asBytes(await call(rel, () => source.read(rel, offset, length)), rel, 'read()');
    if (bytes.length !== length) {
      throw new Error(`${rel}: short read: ${bytes.length} of ${length} bytes at ${offset}`);
    }
    return bytes;
  };
  return {
    describe: () => 'the caller\'s source',
    async list(rules) {
      const names = await call(`${rules}/`, () => source.list(rules));
      return names === null || names === undefined ? null : [...names].map(String);
    },
    async head(rel, length) {
      if (typeof source.head === 'function') {
        const head = await call(rel, () => source.head(rel, length));
        return head === null || head === undefined ? null : { size: head.size, bytes: asBytes(head.bytes, rel, 'head()') };
      }
      if (typeof source.size !== 'function') throw new TypeError('a source object needs size() or head()');
      const size = await call(rel, () => source.size(rel));
      if (size === null || size === undefined) return null;
      if (!Number.isSafeInteger(size) || size < 0) throw new Error(`${rel}: the source's size() gave ${size}`);
      return { size, bytes: await read(rel, 0, Math.min(length, size)) };
    },
    read,
  };
}

/** The source `source` names: a URL, a directory path, or the caller's object. */
export async function sourceOf(source, options = {}) {
  if (source instanceof URL || (typeof source === 'string' && /^https?:\/\//i.test(source))) {
    return urlSource(source, options);
  }
  if (typeof source === 'string') {
    if (typeof process === 'undefined' || !process.versions?.node) {
      throw new TypeError(`${source}: a directory is read in Node; in a browser give a URL`);
    }
    return directorySource(source);
  }
  if (source !== null && typeof source === 'object') return customSource(source);
  throw new TypeError('the source is a directory path, an http(s) URL or a source object');
}
