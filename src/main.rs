//! The wasm entry point that Trunk builds: panic hook, the lesson data
//! (`checkpoint_lab::data`), then render the app into `#app`.

#[cfg(target_arch = "wasm32")]
fn main() {
    checkpoint_lab::panic::install_hook();
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .expect("index.html has <div id=\"app\">");
    // The first lesson's data is inline in index.html: rendered at once unless a
    // link asks for another lesson, whose files are fetched first.
    checkpoint_lab::data::boot(move || {
        root.set_inner_html(""); // the "loading" note shown until the wasm has arrived
        yew::Renderer::<checkpoint_lab::App>::with_root(root).render();
    });
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "checkpoint-lab is a web page: build it with `trunk build --release` or run `trunk serve`."
    );
    std::process::exit(2);
}
