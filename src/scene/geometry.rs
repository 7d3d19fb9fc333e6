//! The stage's geometry below every layout pass: [`Rect`], the text sizes the
//! labels use, and [`text_width`], how wide a text is in the page's fonts. The
//! layout ([`super::layout`]), the placement pass ([`super::placement`]), the
//! chips ([`super::flow`]) and the live-state line ([`super::state_line`]) all
//! size from here, so none of them imports another for a width.

/// The text size of the "+N" counters (monospace).
pub const OVERFLOW_TEXT: f64 = 21.0;
/// The text size of the braces' `chk-n` labels, the smallest text on the stage.
pub const BRACE_TEXT: f64 = 16.0;

/// An axis-aligned box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl Rect {
    /// A box of `w` × `h` centred on `(cx, cy)`.
    pub fn centred(cx: f64, cy: f64, w: f64, h: f64) -> Rect {
        Rect {
            x: cx - w / 2.0,
            y: cy - h / 2.0,
            w,
            h,
        }
    }

    /// Area of the overlap with `o` (0: none; touching edges do not overlap).
    pub fn overlap(&self, o: &Rect) -> f64 {
        let ix = (self.x + self.w).min(o.x + o.w) - self.x.max(o.x);
        let iy = (self.y + self.h).min(o.y + o.h) - self.y.max(o.y);
        if ix > 0.5 && iy > 0.5 {
            ix * iy
        } else {
            0.0
        }
    }

    /// The box grown by `m` on every side.
    pub fn inflate(&self, m: f64) -> Rect {
        Rect {
            x: self.x - m,
            y: self.y - m,
            w: self.w + 2.0 * m,
            h: self.h + 2.0 * m,
        }
    }

    /// The same box moved by `(dx, dy)`.
    pub fn moved(&self, dx: f64, dy: f64) -> Rect {
        Rect {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}

/// Measures a text in the page's real fonts: its width in em (at font size 1),
/// bold sans or monospace; `None` where it cannot (then the estimate serves).
pub type Measure = Box<dyn Fn(&str, Face) -> Option<f64>>;

/// Which of the page's two fonts a text is set in (both bold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Face {
    /// The sans-serif of names, statuses and notes.
    Sans,
    /// The monospace of subtask names, values and code.
    Mono,
}

std::thread_local! {
    static MEASURE: std::cell::RefCell<Option<Measure>> = const { std::cell::RefCell::new(None) };
}

/// Room the measured width keeps for what the canvas's measure and the SVG's
/// rendering of one font may differ by (hinting, sub-pixel positions).
const MEASURED_MARGIN: f64 = 1.02;

/// Lets [`text_width`] measure in the page's real fonts (the page installs a
/// canvas `measureText`; native tests keep the estimate).
pub fn install_measure(measure: Measure) {
    MEASURE.with(|m| *m.borrow_mut() = Some(measure));
}

/// How wide `text` is at `size` (bold sans, or monospace): measured in the
/// page's fonts once the page installed its measure, else [`estimated_width`].
/// Every box, lane and chip is sized from it, so a border never runs through
/// the text it was sized for.
pub fn text_width(text: &str, size: f64, face: Face) -> f64 {
    MEASURE
        .with(|m| m.borrow().as_ref().and_then(|m| m(text, face)))
        .map_or_else(
            || estimated_width(text, size, face),
            |em| em * size * MEASURED_MARGIN,
        )
}

/// Roughly how wide `text` is at `size` (bold sans, or monospace), by character
/// class: enough to size a box where the real fonts cannot be measured.
pub fn estimated_width(text: &str, size: f64, face: Face) -> f64 {
    text.chars()
        .map(|c| {
            let em = if ('\u{2e80}'..='\u{ffff}').contains(&c)
                && !('\u{2190}'..='\u{27bf}').contains(&c)
            {
                1.0
            } else if face == Face::Mono {
                0.6
            } else if "iljI.,:;|!'".contains(c) {
                0.3
            } else if "mwMW".contains(c) {
                0.88
            } else if c == ' ' {
                0.28
            } else if "-".contains(c) {
                0.38
            } else if c.is_ascii_uppercase() || c.is_ascii_digit() || c == '#' || c == '_' {
                0.64
            } else if c.is_ascii() {
                0.58
            } else {
                0.9
            };
            em * size * 1.04
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_widths_are_plausible() {
        let sum = text_width("sum", 28.0, Face::Sans);
        assert!(sum > 40.0 && sum < 70.0, "{sum}");
        assert_eq!(
            text_width("ab", 20.0, Face::Mono),
            text_width("#1", 20.0, Face::Mono)
        );
        assert!(text_width("运行", 20.0, Face::Sans) > text_width("ab", 20.0, Face::Sans));
    }
}
