//! The release page, held in memory with its brotli and gzip copies.
//!
//! Every regular file under the dist directory is read once at start; a request
//! is answered by looking its path up among them. No filesystem path is ever made
//! from a request, so `..`, `%2e%2e`, absolute paths and symlinks cannot reach a
//! file outside the build (symlinks are not even read: the walk skips them).

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use axum::body::Bytes;

/// One file of the page and its compressed copies (kept only when smaller).
#[derive(Debug)]
pub struct Asset {
    /// The file as built.
    pub raw: Bytes,
    /// Brotli, quality 11.
    pub br: Option<Bytes>,
    /// Gzip, level 9.
    pub gz: Option<Bytes>,
    /// `Content-Type`.
    pub content_type: &'static str,
    /// `Cache-Control`: immutable for a file whose name carries a content hash.
    pub cache_control: &'static str,
}

/// An encoding chosen for one response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// `Content-Encoding: br`.
    Brotli,
    /// `Content-Encoding: gzip`.
    Gzip,
    /// No content coding.
    Identity,
}

impl Asset {
    /// The best copy `accept_encoding` allows: brotli, then gzip, then the file as is.
    pub fn pick(&self, accept_encoding: &str) -> (Encoding, &Bytes) {
        if let (true, Some(br)) = (accepts(accept_encoding, "br"), &self.br) {
            return (Encoding::Brotli, br);
        }
        if let (true, Some(gz)) = (accepts(accept_encoding, "gzip"), &self.gz) {
            return (Encoding::Gzip, gz);
        }
        (Encoding::Identity, &self.raw)
    }
}

/// Whether an `Accept-Encoding` value lists `coding` with a non-zero weight.
fn accepts(header: &str, coding: &str) -> bool {
    header.split(',').any(|item| {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        if !name.eq_ignore_ascii_case(coding) {
            return false;
        }
        // `br;q=0` refuses brotli.
        !parts.any(|p| {
            let p = p.trim();
            p.strip_prefix("q=")
                .and_then(|q| q.trim().parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        })
    })
}

/// The page's files by their path in the URL (`index.html`, `data/x.1a2b.json`).
#[derive(Debug, Default)]
pub struct Site {
    files: HashMap<String, Asset>,
    /// Bytes of the compressible files as built, as brotli and as gzip (the
    /// smaller of each and the original): what the server prints at start.
    pub totals: (u64, u64, u64),
}

/// Files that compress (the rest — images — are sent as they are).
const COMPRESSIBLE: &[&str] = &["html", "js", "css", "wasm", "json", "svg", "txt", "java"];

impl Site {
    /// Reads every regular file under `dir` and compresses it. A `.br` / `.gz`
    /// beside a file, newer than it, is reused (a restart does not recompress
    /// the wasm); a fresh copy is written there when the directory is writable.
    pub fn load(dir: &Path) -> Result<Site, String> {
        let meta = std::fs::metadata(dir).map_err(|e| format!("--dist {}: {e}", dir.display()))?;
        if !meta.is_dir() {
            return Err(format!("--dist {}: not a directory", dir.display()));
        }
        if !dir.join("index.html").is_file() {
            return Err(format!(
                "--dist {}: no index.html — build the page first (trunk build --release)",
                dir.display()
            ));
        }
        let mut paths = Vec::new();
        walk(dir, &mut paths).map_err(|e| format!("--dist {}: {e}", dir.display()))?;
        let mut site = Site::default();
        let names: std::collections::HashSet<PathBuf> = paths.iter().cloned().collect();
        for path in &paths {
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            // A precompressed copy of another file is not a page file of its own.
            if (ext == "br" || ext == "gz") && names.contains(&path.with_extension("")) {
                continue;
            }
            let rel = path.strip_prefix(dir).expect("walked under dir");
            let Some(key) = url_key(rel) else { continue };
            let raw = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let (br, gz) = if COMPRESSIBLE.contains(&ext) {
                let br = compressed(path, "br", &raw, brotli_bytes);
                let gz = compressed(path, "gz", &raw, gzip_bytes);
                site.totals.0 += raw.len() as u64;
                site.totals.1 += br.as_ref().map_or(raw.len(), Vec::len) as u64;
                site.totals.2 += gz.as_ref().map_or(raw.len(), Vec::len) as u64;
                (br.map(Bytes::from), gz.map(Bytes::from))
            } else {
                (None, None)
            };
            let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or("");
            site.files.insert(
                key,
                Asset {
                    raw: Bytes::from(raw),
                    br,
                    gz,
                    content_type: content_type(ext),
                    cache_control: if is_hashed(name) {
                        "public, max-age=31536000, immutable"
                    } else {
                        // index.html, sw.js and anything else named without a
                        // hash: revalidated, so a new release is seen at once.
                        "no-cache"
                    },
                },
            );
        }
        Ok(site)
    }

    /// The file a URL path names, or why none is served. `path` is the request's
    /// path as sent (percent-encoded).
    pub fn lookup(&self, path: &str) -> Result<&Asset, Refusal> {
        let decoded = percent_decode(path).ok_or(Refusal::BadPath)?;
        let mut rel = decoded
            .strip_prefix('/')
            .ok_or(Refusal::BadPath)?
            .to_string();
        if rel.is_empty() || rel.ends_with('/') {
            rel.push_str("index.html");
        }
        if rel
            .split('/')
            .any(|seg| seg.is_empty() || seg == "." || seg == ".." || seg.contains(['\\', '\0']))
        {
            return Err(Refusal::BadPath);
        }
        self.files.get(&rel).ok_or(Refusal::NotFound)
    }

    /// How many files are served.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no file is served.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Why a path is not served.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A path that leaves the build or is not a plain file path (`..`, `//`, `\`, bad escapes).
    BadPath,
    /// No such file in the build.
    NotFound,
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        // file_type() does not follow symlinks: a link is neither a file nor a
        // directory here, so nothing it points at is read.
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&entry.path(), out)?;
        } else if kind.is_file() {
            out.push(entry.path());
        }
    }
    Ok(())
}

/// `a/b.js` for a relative path of plain UTF-8 components.
fn url_key(rel: &Path) -> Option<String> {
    let parts: Option<Vec<&str>> = rel
        .components()
        .map(|c| match c {
            std::path::Component::Normal(s) => s.to_str(),
            _ => None,
        })
        .collect();
    Some(parts?.join("/"))
}

/// A compressed copy of `raw`: reused from `path.<ext>` when that is a regular
/// file newer than `path`, else made (and written there if possible). `None`
/// when it would not be smaller.
fn compressed(path: &Path, ext: &str, raw: &[u8], make: fn(&[u8]) -> Vec<u8>) -> Option<Vec<u8>> {
    let side = PathBuf::from(format!("{}.{ext}", path.display()));
    let fresh = (|| {
        let side_meta = std::fs::symlink_metadata(&side).ok()?;
        let orig = std::fs::metadata(path).ok()?.modified().ok()?;
        (side_meta.is_file() && side_meta.modified().ok()? >= orig).then_some(())
    })();
    if fresh.is_some() {
        if let Ok(bytes) = std::fs::read(&side) {
            return (bytes.len() < raw.len()).then_some(bytes);
        }
    }
    let bytes = make(raw);
    if bytes.len() >= raw.len() {
        let _ = std::fs::remove_file(&side);
        return None;
    }
    // Best effort: a read-only dist is served from memory all the same.
    let _ = std::fs::write(&side, &bytes);
    Some(bytes)
}

fn brotli_bytes(raw: &[u8]) -> Vec<u8> {
    brotli_at(raw, 11)
}

fn gzip_bytes(raw: &[u8]) -> Vec<u8> {
    gzip_at(raw, 9)
}

/// Brotli at `quality` (0–11).
pub fn brotli_at(raw: &[u8], quality: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() / 3);
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 1 << 16, quality, 22);
        w.write_all(raw).expect("writing to memory");
    }
    out
}

/// Gzip at `level` (0–9).
pub fn gzip_at(raw: &[u8], level: u32) -> Vec<u8> {
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    w.write_all(raw).expect("writing to memory");
    w.finish().expect("writing to memory")
}

fn content_type(ext: &str) -> &'static str {
    match ext {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "txt" | "java" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Trunk names its outputs `name-<16 hex>.ext` and the data manifest
/// `name.<12 hex>.json`: a run of at least 8 hex digits (with a digit among
/// them) between separators marks a file whose content never changes.
pub fn is_hashed(name: &str) -> bool {
    name.split(['-', '.', '_']).any(|tok| {
        tok.len() >= 8
            && tok.bytes().all(|b| b.is_ascii_hexdigit())
            && tok.bytes().any(|b| b.is_ascii_digit())
    })
}

/// Decodes `%XX` escapes; `None` for a malformed escape or bytes that are not UTF-8.
pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(!accepts("gzip, deflate", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("br;q=0.5", "br"));
        assert!(!accepts("brotli", "br"));
    }

    #[test]
    fn hashed_names() {
        assert!(is_hashed("checkpoint-lab-bed397648ff63090_bg.wasm"));
        assert!(is_hashed("favicon-d1a9c489fc0ff19.svg"));
        assert!(is_hashed("pv-count.73b0f2142939.json"));
        assert!(!is_hashed("index.html"));
        assert!(!is_hashed("sw.js"));
        assert!(!is_hashed("deadbeefcafe.js"));
    }

    #[test]
    fn percent_escapes() {
        assert_eq!(percent_decode("/a%2e%2E/b").as_deref(), Some("/a../b"));
        assert_eq!(percent_decode("/a%2"), None);
        assert_eq!(percent_decode("/a%zz"), None);
        assert_eq!(percent_decode("/%ff"), None);
    }
}
