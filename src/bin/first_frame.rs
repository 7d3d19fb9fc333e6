//! Writes the page's first frame (`checkpoint_lab::first_frame`): the default
//! lesson's job graph at t = 0 in the page's shell, one `<div>` per language,
//! on stdout; with `--palette`, the palette's `<style>` for the page's head. `scripts/first-frame.cjs`, a Trunk post-build hook of release
//! builds, puts it into `dist/index.html`. Exits 1 if the first moment has
//! records or barriers in flight (the static frame cannot paint them).

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::rc::Rc;

    use checkpoint_lab::first_frame::{self, FirstMoment};
    use checkpoint_lab::i18n::Lang;
    use checkpoint_lab::scene::Orientation;

    if std::env::args().nth(1).as_deref() == Some("--palette") {
        println!("{}", first_frame::palette_style());
        return;
    }
    let first = match FirstMoment::default_lesson() {
        Ok(f) => Rc::new(f),
        Err(e) => {
            eprintln!("first-frame: {e}");
            std::process::exit(1);
        }
    };
    for (lang, orientation, scene) in first_frame::scenes(&first) {
        if !scene.tokens.is_empty() || !scene.overflows.is_empty() {
            eprintln!(
                "first-frame: {} has {} tokens in flight at t = 0 ({}, {}); the static frame cannot paint them",
                first.scenario,
                scene.tokens.len(),
                lang.code(),
                match orientation {
                    Orientation::Across => "projector",
                    Orientation::Down => "phone",
                }
            );
            std::process::exit(1);
        }
    }
    for lang in Lang::ALL {
        println!("{}", first_frame::render(&first, lang));
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
