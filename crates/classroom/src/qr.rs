//! The students' link as a QR code in the terminal: two rows of modules per text
//! line with the half-block characters, dark modules drawn as the terminal's
//! background so a light-on-dark terminal prints a scannable (inverted-free) code.

use qrcode::{Color, EcLevel, QrCode};

/// The quiet zone, in modules (the standard's minimum).
const QUIET: usize = 4;

/// `text` as lines of `█`, `▀`, `▄` and spaces; light modules are drawn, so the
/// code reads dark-on-light in a terminal with a dark background. `None` when
/// the text is too long for a QR code.
pub fn terminal(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let w = code.width();
    let colors = code.to_colors();
    let side = w + 2 * QUIET;
    let light = |x: usize, y: usize| -> bool {
        if x < QUIET || y < QUIET || x >= w + QUIET || y >= w + QUIET {
            return true;
        }
        colors[(y - QUIET) * w + (x - QUIET)] == Color::Light
    };
    let mut out = String::new();
    for y in (0..side).step_by(2) {
        for x in 0..side {
            let top = light(x, y);
            let bottom = y + 1 < side && light(x, y + 1);
            out.push(match (top, bottom) {
                (true, true) => '█',
                (true, false) => '▀',
                (false, true) => '▄',
                (false, false) => ' ',
            });
        }
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_link_draws_as_a_square_of_half_blocks() {
        let qr = super::terminal("http://192.168.1.20:8080/").unwrap();
        let lines: Vec<&str> = qr.lines().collect();
        let side = lines[0].chars().count();
        // Version 2 (25 modules) plus the quiet zone: 33 columns, 17 lines.
        assert_eq!((side, lines.len()), (33, 17));
        assert!(
            lines[0].chars().all(|c| c == '█'),
            "the quiet zone is light"
        );
    }
}
