//! Prints the CIEDE2000 difference between every pair of the stage's epoch and
//! status colours (`scene::palette`), as seen normally and under Chromium's
//! emulated deuteranopia, protanopia and tritanopia, and exits with 1 when a
//! pair is closer than `MIN_DELTA_E`. Run it with `bash scripts/palette.sh`.

use checkpoint_lab::scene::palette::difference::{delta_e_2000, Vision};
use checkpoint_lab::scene::palette::{meanings, MIN_DELTA_E};

fn main() {
    let all = meanings();
    println!("colours:");
    for (name, c) in &all {
        println!("  {name:<14} {}", c.hex());
    }
    let mut worst: Option<(f64, String)> = None;
    for vision in Vision::ALL {
        println!(
            "\nΔE00 under {} (rows and columns in the order above):",
            vision.name()
        );
        print!("{:<14}", "");
        for (name, _) in &all {
            print!("{:>7}", &name[..name.len().min(6)]);
        }
        println!();
        for (a, ca) in &all {
            print!("{a:<14}");
            for (b, cb) in &all {
                if a == b {
                    print!("{:>7}", "·");
                    continue;
                }
                let d = delta_e_2000(vision.see(*ca), vision.see(*cb));
                print!("{d:>7.1}");
                if worst.as_ref().is_none_or(|(w, _)| d < *w) {
                    worst = Some((d, format!("{a} / {b} under {}", vision.name())));
                }
            }
            println!();
        }
    }
    let (d, pair) = worst.expect("the palette has colours");
    println!("\nsmallest ΔE00: {d:.1} ({pair}); required: {MIN_DELTA_E}");
    if d < MIN_DELTA_E {
        std::process::exit(1);
    }
}
