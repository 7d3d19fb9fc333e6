//! How different two colours look: sRGB → CIELAB (D65), the CIEDE2000 colour
//! difference (Sharma, Wu & Dalal 2005, kL = kC = kH = 1), and the colour-vision
//! deficiencies as Chromium's DevTools emulates them
//! (`Emulation.setEmulatedVisionDeficiency`: the Machado, Oliveira & Fernandes
//! 2009 matrices at full severity, rounded to three decimals as in Blink's
//! `vision_deficiency.cc`, applied by an SVG `feColorMatrix` — in linear RGB,
//! that filter's default colour space — and clipped to [0, 1]).

use super::Rgb;

/// A CIELAB colour (D65 white).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lab {
    pub l: f64,
    pub a: f64,
    pub b: f64,
}

/// How a viewer sees colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Vision {
    /// Typical colour vision.
    Normal,
    /// No M cones (green).
    Deuteranopia,
    /// No L cones (red).
    Protanopia,
    /// No S cones (blue).
    Tritanopia,
}

impl Vision {
    /// Every vision the palette is checked under.
    pub const ALL: [Vision; 4] = [
        Vision::Normal,
        Vision::Deuteranopia,
        Vision::Protanopia,
        Vision::Tritanopia,
    ];

    /// Chromium's name (`Emulation.setEmulatedVisionDeficiency`'s `type`).
    pub fn name(self) -> &'static str {
        match self {
            Vision::Normal => "none",
            Vision::Deuteranopia => "deuteranopia",
            Vision::Protanopia => "protanopia",
            Vision::Tritanopia => "tritanopia",
        }
    }

    fn matrix(self) -> Option<[[f64; 3]; 3]> {
        match self {
            Vision::Normal => None,
            Vision::Deuteranopia => Some([
                [0.367, 0.861, -0.228],
                [0.280, 0.673, 0.047],
                [-0.012, 0.043, 0.969],
            ]),
            Vision::Protanopia => Some([
                [0.152, 1.053, -0.205],
                [0.115, 0.786, 0.099],
                [-0.004, -0.048, 1.052],
            ]),
            Vision::Tritanopia => Some([
                [1.256, -0.077, -0.179],
                [-0.078, 0.931, 0.148],
                [0.005, 0.691, 0.304],
            ]),
        }
    }

    /// `c` as this viewer sees it, in CIELAB.
    pub fn see(self, c: Rgb) -> Lab {
        let rgb = linear(c);
        let rgb = match self.matrix() {
            None => rgb,
            Some(m) => {
                let row =
                    |r: [f64; 3]| (r[0] * rgb[0] + r[1] * rgb[1] + r[2] * rgb[2]).clamp(0.0, 1.0);
                [row(m[0]), row(m[1]), row(m[2])]
            }
        };
        lab_of_linear(rgb)
    }
}

/// The linear-light components of an sRGB colour, 0–1.
pub fn linear(c: Rgb) -> [f64; 3] {
    let f = |v: u8| {
        let v = f64::from(v) / 255.0;
        if v <= 0.04045 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    [f(c.0), f(c.1), f(c.2)]
}

/// CIELAB of linear sRGB (D65).
pub fn lab_of_linear([r, g, b]: [f64; 3]) -> Lab {
    let x = 0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b;
    let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b;
    let z = 0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b;
    let f = |t: f64| {
        if t > 216.0 / 24_389.0 {
            t.cbrt()
        } else {
            (24_389.0 / 27.0 * t + 16.0) / 116.0
        }
    };
    let (fx, fy, fz) = (f(x / 0.950_47), f(y), f(z / 1.088_83));
    Lab {
        l: 116.0 * fy - 16.0,
        a: 500.0 * (fx - fy),
        b: 200.0 * (fy - fz),
    }
}

/// The CIEDE2000 difference between two CIELAB colours.
pub fn delta_e_2000(p: Lab, q: Lab) -> f64 {
    let (c1, c2) = (p.a.hypot(p.b), q.a.hypot(q.b));
    let c_mean = (c1 + c2) / 2.0;
    let g = 0.5 * (1.0 - (c_mean.powi(7) / (c_mean.powi(7) + 25f64.powi(7))).sqrt());
    let (a1, a2) = ((1.0 + g) * p.a, (1.0 + g) * q.a);
    let (c1, c2) = (a1.hypot(p.b), a2.hypot(q.b));
    let hue = |b: f64, a: f64| {
        if a == 0.0 && b == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees().rem_euclid(360.0)
        }
    };
    let (h1, h2) = (hue(p.b, a1), hue(q.b, a2));
    let dl = q.l - p.l;
    let dc = c2 - c1;
    let dh = if c1 * c2 == 0.0 {
        0.0
    } else if (h2 - h1).abs() <= 180.0 {
        h2 - h1
    } else if h2 - h1 > 180.0 {
        h2 - h1 - 360.0
    } else {
        h2 - h1 + 360.0
    };
    let dh_big = 2.0 * (c1 * c2).sqrt() * (dh / 2.0).to_radians().sin();
    let l_mean = (p.l + q.l) / 2.0;
    let c_mean = (c1 + c2) / 2.0;
    let h_mean = if c1 * c2 == 0.0 {
        h1 + h2
    } else if (h1 - h2).abs() <= 180.0 {
        (h1 + h2) / 2.0
    } else if h1 + h2 < 360.0 {
        (h1 + h2 + 360.0) / 2.0
    } else {
        (h1 + h2 - 360.0) / 2.0
    };
    let t = 1.0 - 0.17 * (h_mean - 30.0).to_radians().cos()
        + 0.24 * (2.0 * h_mean).to_radians().cos()
        + 0.32 * (3.0 * h_mean + 6.0).to_radians().cos()
        - 0.20 * (4.0 * h_mean - 63.0).to_radians().cos();
    let d_theta = 30.0 * (-((h_mean - 275.0) / 25.0).powi(2)).exp();
    let r_c = 2.0 * (c_mean.powi(7) / (c_mean.powi(7) + 25f64.powi(7))).sqrt();
    let s_l = 1.0 + 0.015 * (l_mean - 50.0).powi(2) / (20.0 + (l_mean - 50.0).powi(2)).sqrt();
    let s_c = 1.0 + 0.045 * c_mean;
    let s_h = 1.0 + 0.015 * c_mean * t;
    let r_t = -(2.0 * d_theta).to_radians().sin() * r_c;
    let (l, c, h) = (dl / s_l, dc / s_c, dh_big / s_h);
    (l * l + c * c + h * h + r_t * c * h).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(l: f64, a: f64, b: f64) -> Lab {
        Lab { l, a, b }
    }

    /// Mirrors Sharma, Wu & Dalal's supplementary test data (pairs 1, 7, 13, 17,
    /// 25, 34: a blue pair, achromatic, hue crossings, large differences).
    #[test]
    fn ciede2000_matches_sharmas_test_pairs() {
        for (p, q, want) in [
            (
                lab(50.0, 2.6772, -79.7751),
                lab(50.0, 0.0, -82.7485),
                2.0425,
            ),
            (lab(50.0, 0.0, 0.0), lab(50.0, -1.0, 2.0), 2.3669),
            (lab(50.0, 2.49, -0.001), lab(50.0, -2.49, 0.0011), 7.2195),
            (lab(50.0, 2.5, 0.0), lab(73.0, 25.0, -18.0), 27.1492),
            (
                lab(60.2574, -34.0099, 36.2677),
                lab(60.4626, -34.1751, 39.4387),
                1.2644,
            ),
            (
                lab(2.0776, 0.0795, -1.135),
                lab(0.9033, -0.0636, -0.5514),
                0.9082,
            ),
        ] {
            let d = delta_e_2000(p, q);
            assert!((d - want).abs() < 1e-4, "{p:?} {q:?}: {d} ≠ {want}");
            assert!((delta_e_2000(q, p) - d).abs() < 1e-9, "symmetric");
        }
    }

    #[test]
    fn white_and_black_are_the_ends_of_lightness() {
        let w = Vision::Normal.see(Rgb(255, 255, 255));
        let k = Vision::Normal.see(Rgb(0, 0, 0));
        assert!((w.l - 100.0).abs() < 0.01 && w.a.abs() < 0.01 && w.b.abs() < 0.01);
        assert!(k.l.abs() < 1e-9);
    }

    /// The deficiencies collapse the axis they lack: red and green, nearly
    /// equal in lightness, move close together for a deuteranope but not for a
    /// tritanope; greys stay grey for everyone (each matrix row sums to 1).
    #[test]
    fn deficiencies_collapse_their_axis() {
        let (red, green) = (Rgb(0xd0, 0x50, 0x30), Rgb(0x70, 0x90, 0x30));
        let d = |v: Vision| delta_e_2000(v.see(red), v.see(green));
        assert!(d(Vision::Deuteranopia) < d(Vision::Normal) / 2.0);
        assert!(d(Vision::Tritanopia) > d(Vision::Deuteranopia));
        for v in Vision::ALL {
            let g = v.see(Rgb(128, 128, 128));
            assert!(g.a.abs() < 0.5 && g.b.abs() < 0.5, "{v:?}: {g:?}");
        }
    }
}
