//! Short links and QR codes for the current moment, so that
//! students open it on their phones.
//!
//! A *short link* names a built-in lesson, its seed, a mode switch and the
//! cursor's step in the query (`?scenario=…&seed=…&step=…`), which the page
//! already reads; the full share link (`#lab=1.…`, [`super::encode`]) carries the
//! whole scenario and the learner's interventions and is often too long for a QR
//! code that scans from a projector.
//!
//! The QR code is computed locally by the `qrcode` crate (no network, no JS) and
//! drawn as one SVG path. Above [`MAX_VERSION`] the modules get too small to scan
//! from the back of a room: the caller says so instead of drawing.
//!
//! Pure; a native test decodes the drawn code back with a QR reader.

use qrcode::{EcLevel, QrCode, Version};

use crate::playback::{Mode, State};

/// The largest QR version drawn: 57 × 57 modules (about 150 bytes at level M).
/// Projected at ~40 cm on a wall a phone reads that from 6 m; beyond it, modules
/// shrink below what a phone resolves across a room.
pub const MAX_VERSION: i16 = 10;

/// Quiet zone around the code, in modules (the standard's minimum).
pub const QUIET: usize = 4;

/// A QR code's modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// Modules per side (without the quiet zone).
    pub width: usize,
    /// Dark modules, row by row.
    pub dark: Vec<bool>,
    /// Its version (1 …).
    pub version: i16,
}

impl Matrix {
    /// Side of the SVG's view box: the modules and the quiet zone on both sides.
    pub fn side(&self) -> usize {
        self.width + 2 * QUIET
    }

    /// The dark modules as one SVG path (`M x y h1 v1 h-1 z` per run of a row).
    pub fn path(&self) -> String {
        let mut d = String::new();
        for y in 0..self.width {
            let mut x = 0;
            while x < self.width {
                if self.dark[y * self.width + x] {
                    let start = x;
                    while x < self.width && self.dark[y * self.width + x] {
                        x += 1;
                    }
                    d.push_str(&format!(
                        "M{} {}h{}v1h-{}z",
                        start + QUIET,
                        y + QUIET,
                        x - start,
                        x - start
                    ));
                } else {
                    x += 1;
                }
            }
        }
        d
    }
}

/// What can be drawn for a link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Qr {
    /// A code small enough to scan from a projector.
    Code(Matrix),
    /// Too long: its length in characters.
    TooLong(usize),
}

/// The QR code of `link` at error-correction level M, or [`Qr::TooLong`] when it
/// would need a version above [`MAX_VERSION`].
pub fn qr(link: &str) -> Qr {
    match QrCode::with_error_correction_level(link.as_bytes(), EcLevel::M) {
        Ok(code) => {
            let version = match code.version() {
                Version::Normal(v) => v,
                Version::Micro(v) => v,
            };
            if version > MAX_VERSION {
                return Qr::TooLong(link.chars().count());
            }
            let width = code.width();
            let dark = code
                .to_colors()
                .into_iter()
                .map(|c| c == qrcode::Color::Dark)
                .collect();
            Qr::Code(Matrix {
                width,
                dark,
                version,
            })
        }
        Err(_) => Qr::TooLong(link.chars().count()),
    }
}

/// What a short link names: a built-in lesson's moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShortParams {
    /// The built-in lesson.
    pub scenario: String,
    /// The run's seed.
    pub seed: u64,
    /// The checkpointing mode, when switched from the lesson's own.
    pub mode: Option<&'static str>,
    /// The cursor's step.
    pub step: u64,
}

/// The short link's parameters for `state`, when it runs a built-in lesson as
/// the library has it (apart from a mode switch, which the link names). `None`
/// for an edited or imported scenario.
pub fn short_params(state: &State) -> Option<ShortParams> {
    let mut builtin = engine::runner::load(&state.scenario).ok()?;
    let switched = Mode::of(&builtin) != state.mode;
    if switched {
        let over = engine::runner::ModeOverride::parse(state.mode.key()).ok()?;
        let opts = engine::runner::RunOptions {
            mode: Some(over),
            ..Default::default()
        };
        engine::runner::apply_options(&mut builtin, &opts).ok()?;
    }
    let same = state.with_scenario(|s| s == &builtin)?;
    same.then(|| ShortParams {
        scenario: state.scenario.clone(),
        seed: state.seed,
        mode: switched.then(|| state.mode.key()),
        step: state.step(),
    })
}

/// The short link of a built-in lesson's moment: `base` (origin and path of the
/// page), then the lesson, seed, mode (when switched), step and language.
pub fn short_link(
    base: &str,
    scenario: &str,
    seed: u64,
    mode: Option<&str>,
    step: u64,
    lang: &str,
) -> String {
    let enc = |s: &str| -> String {
        s.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    let mut out = format!(
        "{base}?lang={}&scenario={}&seed={seed}",
        enc(lang),
        enc(scenario)
    );
    if let Some(m) = mode {
        out.push_str(&format!("&mode={}", enc(m)));
    }
    out.push_str(&format!("&step={step}"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The drawn modules, scaled up with their quiet zone, as a greyscale picture
    /// a phone camera would see; decoded with `rqrr`.
    fn decode(m: &Matrix) -> String {
        let scale = 6;
        let side = m.side() * scale;
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            let (mx, my) = (x / scale, y / scale);
            let inside =
                (QUIET..QUIET + m.width).contains(&mx) && (QUIET..QUIET + m.width).contains(&my);
            if inside && m.dark[(my - QUIET) * m.width + (mx - QUIET)] {
                0
            } else {
                255
            }
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one code found");
        grids[0].decode().expect("the code decodes").1
    }

    /// The path draws exactly the dark modules.
    fn from_path(m: &Matrix) -> Vec<bool> {
        let mut dark = vec![false; m.width * m.width];
        for cmd in m.path().split('M').filter(|s| !s.is_empty()) {
            let (xy, rest) = cmd.split_once('h').unwrap();
            let (x, y) = xy.split_once(' ').unwrap();
            let (x, y): (usize, usize) = (x.parse().unwrap(), y.parse().unwrap());
            let n: usize = rest.split_once('v').unwrap().0.parse().unwrap();
            for i in 0..n {
                dark[(y - QUIET) * m.width + x - QUIET + i] = true;
            }
        }
        dark
    }

    #[test]
    fn a_short_link_round_trips_through_its_qr_code() {
        let link = short_link(
            "http://192.168.1.20:8080/checkpoint-lab/",
            "savepoint-rescale",
            11,
            Some("unaligned"),
            925,
            "zh",
        );
        assert_eq!(
            link,
            "http://192.168.1.20:8080/checkpoint-lab/?lang=zh&scenario=savepoint-rescale&seed=11&mode=unaligned&step=925"
        );
        let Qr::Code(m) = qr(&link) else {
            panic!("a short link fits")
        };
        assert!(m.version <= MAX_VERSION);
        assert_eq!(from_path(&m), m.dark);
        assert_eq!(decode(&m), link);
    }

    #[test]
    fn a_long_link_is_refused_not_drawn() {
        let long = format!("https://example.org/#lab=1.{}", "A".repeat(900));
        assert_eq!(qr(&long), Qr::TooLong(long.chars().count()));
        // Just at the limit it still draws.
        let mut fits = String::from("https://example.org/?");
        while matches!(qr(&format!("{fits}x")), Qr::Code(_)) {
            fits.push('x');
        }
        let Qr::Code(m) = qr(&fits) else { panic!() };
        assert_eq!(m.version, MAX_VERSION);
        assert_eq!(decode(&m), fits);
    }

    #[test]
    fn names_are_escaped_in_the_query() {
        let l = short_link("http://h/", "my lesson&x", 1, None, 0, "en");
        assert_eq!(
            l,
            "http://h/?lang=en&scenario=my%20lesson%26x&seed=1&step=0"
        );
    }
}
