//! The stage's visual vocabulary, defined once: the epoch colours and their
//! patterns, the status colours, token and corner sizes. The SVG (stage), the
//! token canvas, the legend and the stylesheet all take them from here — the
//! stylesheet through the custom properties [`css_variables`] writes (the page
//! installs them at start), so `style.css` names `var(--epoch-0)` but never a
//! colour of the simulation.
//!
//! # Distinct meanings
//! Every pair of epoch and status colours differs by at least [`MIN_DELTA_E`]
//! (CIEDE2000), seen normally and under deuteranopia, protanopia and tritanopia
//! as Chromium emulates them ([`difference`]); `scripts/palette.sh` prints the
//! table, a unit test holds the line. Colour is never alone: an epoch also has a
//! pattern (plain, stripes, dots, bars), a status a shape (lock and hatch,
//! dashed ring, ✓, ✕, ⚡).
//!
//! # Layout
//! - [`difference`]: sRGB → CIELAB, CIEDE2000, Chromium's colour-vision-deficiency matrices.
//!
//! Pure: unit-tested natively.

pub mod difference;

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`.
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }

    /// WCAG relative luminance, 0 (black) – 1 (white).
    pub fn luminance(self) -> f64 {
        let [r, g, b] = difference::linear(self);
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }

    /// WCAG contrast ratio with `other` (1–21).
    pub fn contrast(self, other: Rgb) -> f64 {
        let (a, b) = (self.luminance(), other.luminance());
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    /// This colour mixed with white: `amount` 0 is the colour, 1 is white (the
    /// light background of a blocked channel's hatch, a failed lane).
    pub fn tint(self, amount: f64) -> Rgb {
        let mix = |c: u8| (f64::from(c) + (255.0 - f64::from(c)) * amount).round() as u8;
        Rgb(mix(self.0), mix(self.1), mix(self.2))
    }
}

/// The smallest CIEDE2000 difference allowed between two meanings.
pub const MIN_DELTA_E: f64 = 15.0;

/// Records are tinted by their epoch (the checkpoint whose snapshot they will be
/// part of), cycling through these; the pattern cycles with the same period, so
/// colour and pattern always name the same epoch. Four is enough: a stage shows
/// records of two or three checkpoints at once, and each brace says `chk-n`.
pub const EPOCHS: [Rgb; 4] = [
    Rgb(0x60, 0x75, 0xce), // blue
    Rgb(0xe8, 0x7d, 0x00), // orange
    Rgb(0xab, 0x5a, 0x7f), // rose
    Rgb(0x84, 0xe1, 0xff), // sky
];

/// The second cue besides an epoch's colour: an overlay on the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// No overlay.
    Plain,
    /// Diagonal stripes.
    Stripes,
    /// Dots.
    Dots,
    /// Horizontal bars.
    Bars,
}

/// The pattern of each epoch, in the order of [`EPOCHS`].
pub const PATTERNS: [Pattern; 4] = [
    Pattern::Plain,
    Pattern::Stripes,
    Pattern::Dots,
    Pattern::Bars,
];

/// Overlay ink of the patterns (on any epoch colour).
pub const PATTERN_INK: &str = "rgb(255 255 255 / 55%)";

/// The colour of records of epoch (checkpoint) `epoch`.
pub fn epoch_colour(epoch: u64) -> Rgb {
    EPOCHS[(epoch % EPOCHS.len() as u64) as usize]
}

/// The pattern of records of epoch `epoch`.
pub fn epoch_pattern(epoch: u64) -> Pattern {
    PATTERNS[(epoch % PATTERNS.len() as u64) as usize]
}

/// What the stage and the panels colour by state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// An input channel held back while barriers align (with a lock and hatch).
    Blocked,
    /// In-flight records persisted by an unaligned checkpoint (dashed ring).
    Persisted,
    /// A two-phase-commit transaction pre-committed at the barrier (◴).
    PreCommitted,
    /// A transaction committed when its checkpoint completed (✓).
    Committed,
    /// A transaction or checkpoint aborted (✕).
    Aborted,
    /// A crashed subtask, a failed job (⚡).
    Failure,
}

impl Status {
    /// Every status, in legend order.
    pub const ALL: [Status; 6] = [
        Status::Blocked,
        Status::Persisted,
        Status::PreCommitted,
        Status::Committed,
        Status::Aborted,
        Status::Failure,
    ];

    /// Its colour.
    pub fn colour(self) -> Rgb {
        match self {
            Status::Blocked => Rgb(0x5d, 0x36, 0x86),      // violet
            Status::Persisted => Rgb(0x04, 0x5d, 0x4e),    // dark teal
            Status::PreCommitted => Rgb(0xfd, 0xdb, 0x28), // amber
            Status::Committed => Rgb(0x47, 0xaf, 0x7e),    // green
            Status::Aborted => Rgb(0x9e, 0xac, 0xb1),      // grey
            Status::Failure => Rgb(0xba, 0x22, 0x11),      // red
        }
    }

    /// The custom property that names it in the stylesheet (`--blocked`).
    pub fn css_name(self) -> &'static str {
        match self {
            Status::Blocked => "blocked",
            Status::Persisted => "persisted",
            Status::PreCommitted => "pre-committed",
            Status::Committed => "committed",
            Status::Aborted => "aborted",
            Status::Failure => "failure",
        }
    }
}

/// A replayed record's ring and ↺ (the stylesheet's `--accent`, the rewind's `⟲`).
pub const REPLAY: Rgb = Rgb(0x1f, 0x56, 0xc2);
/// A checkpoint barrier: a dark bar (shape, not hue, tells it from records).
pub const BARRIER: Rgb = Rgb(0x14, 0x1a, 0x23);
/// The outline of records and the stroke behind their labels.
pub const OUTLINE: &str = "rgb(16 23 32 / 60%)";
/// End-of-partition markers.
pub const GHOST: Rgb = Rgb(0x9a, 0xa6, 0xb5);

/// The text colour on a record of colour `fill`: white or near-black, whichever
/// contrasts more (an orange or sky record takes dark text).
pub fn label_on(fill: Rgb) -> Rgb {
    let (white, dark) = (Rgb(0xff, 0xff, 0xff), Rgb(0x10, 0x17, 0x20));
    if fill.contrast(white) >= fill.contrast(dark) {
        white
    } else {
        dark
    }
}

/// `c` darkened until text in it reads on white (WCAG 4.5:1 and a margin): the
/// colour of a status's words (`--committed-ink`), where the swatch itself is
/// too light for text.
pub fn ink(c: Rgb) -> Rgb {
    let white = Rgb(0xff, 0xff, 0xff);
    let mut k = 1.0;
    let mut out = c;
    while out.contrast(white) < 4.8 && k > 0.05 {
        k -= 0.02;
        let f = |v: u8| (f64::from(v) * k).round() as u8;
        out = Rgb(f(c.0), f(c.1), f(c.2));
    }
    out
}

/// Size of a token (a record square) in scene units.
pub const TOKEN: f64 = 32.0;
/// Distance between stacked tokens.
pub const SPACING: f64 = 35.0;
/// Font size of a record's label, scene units.
pub const RECORD_LABEL: f64 = 21.0;
/// Font size of a barrier's tag (`B2`), scene units.
pub const BARRIER_LABEL: f64 = 18.0;
/// Corner radius of a record.
pub const TOKEN_CORNER: f64 = 5.0;
/// Corner radius of an operator box.
pub const BOX_CORNER: f64 = 12.0;
/// Corner radius of a subtask lane.
pub const LANE_CORNER: f64 = 9.0;
/// A barrier's bar (width × height) and its tag (width × height), scene units.
pub const BARRIER_BAR: (f64, f64) = (10.0, 52.0);
pub const BARRIER_TAG: (f64, f64) = (46.0, 27.0);

/// Every colour of this module as CSS custom properties, for a `<style>` the
/// page installs before it renders (`:root { --epoch-0: #6075ce; … }`), plus the
/// derived light backgrounds (`--blocked-bg`, `--failure-bg`) and each epoch's
/// label colour (`--epoch-0-label`).
pub fn css_variables() -> String {
    let mut css = String::from(":root {");
    for (i, c) in EPOCHS.iter().enumerate() {
        css.push_str(&format!(
            " --epoch-{i}: {}; --epoch-{i}-label: {};",
            c.hex(),
            label_on(*c).hex()
        ));
    }
    for s in Status::ALL {
        let c = s.colour();
        css.push_str(&format!(
            " --{n}: {}; --{n}-bg: {}; --{n}-ink: {}; --{n}-label: {};",
            c.hex(),
            c.tint(if s == Status::PreCommitted {
                0.72
            } else {
                0.86
            })
            .hex(),
            ink(c).hex(),
            label_on(c).hex(),
            n = s.css_name()
        ));
    }
    css.push_str(&format!(
        " --barrier: {}; --ghost: {}; --record: {}; }}",
        BARRIER.hex(),
        GHOST.hex(),
        EPOCHS[0].hex()
    ));
    css
}

/// Every colour whose meaning must stand apart from every other, with its name.
pub fn meanings() -> Vec<(String, Rgb)> {
    let mut all: Vec<(String, Rgb)> = EPOCHS
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("epoch-{i}"), *c))
        .collect();
    all.extend(
        Status::ALL
            .iter()
            .map(|s| (s.css_name().to_string(), s.colour())),
    );
    all
}

#[cfg(test)]
mod tests {
    use super::difference::{delta_e_2000, Vision};
    use super::*;

    /// What a class must tell apart: every pair of epoch and status colours is at least
    /// ΔE00 15 apart, normally and under each emulated colour-vision deficiency.
    #[test]
    fn every_pair_of_meanings_is_distinct_for_every_vision() {
        let all = meanings();
        for vision in Vision::ALL {
            for (i, (a, ca)) in all.iter().enumerate() {
                for (b, cb) in &all[i + 1..] {
                    let d = delta_e_2000(vision.see(*ca), vision.see(*cb));
                    assert!(d >= MIN_DELTA_E, "{a} vs {b} under {vision:?}: ΔE00 {d:.1}");
                }
            }
        }
    }

    #[test]
    fn epochs_cycle_colour_and_pattern_together() {
        for e in 0..12 {
            assert_eq!(epoch_colour(e), epoch_colour(e + 4));
            assert_eq!(epoch_pattern(e), epoch_pattern(e + 4));
        }
        let mut combos: Vec<(Rgb, Pattern)> = (0..4)
            .map(|e| (epoch_colour(e), epoch_pattern(e)))
            .collect();
        combos.dedup();
        assert_eq!(combos.len(), 4);
    }

    /// A record's label is readable on its colour (WCAG 3:1 for large bold text).
    #[test]
    fn record_labels_contrast_with_their_colour() {
        for c in EPOCHS {
            assert!(label_on(c).contrast(c) >= 3.0, "{}", c.hex());
        }
    }

    /// Words in a status colour read on white (axe's colour contrast).
    #[test]
    fn status_inks_read_on_white() {
        for s in Status::ALL {
            assert!(ink(s.colour()).contrast(Rgb(255, 255, 255)) >= 4.5, "{s:?}");
            assert!(label_on(s.colour()).contrast(s.colour()) >= 4.5, "{s:?}");
        }
    }

    #[test]
    fn css_names_every_colour() {
        let css = css_variables();
        for (name, c) in meanings() {
            assert!(css.contains(&format!("--{name}: {};", c.hex())), "{name}");
        }
        assert!(
            css.contains("--epoch-1-label: #101720;"),
            "orange takes dark text"
        );
        assert!(css.starts_with(":root {") && css.ends_with('}'));
    }
}
