//! The wasm entry point that Trunk builds: panic hook, then render the app into `#app`.

#[cfg(target_arch = "wasm32")]
fn main() {
    checkpoint_lab::panic::install_hook();
    let root = gloo::utils::document()
        .get_element_by_id("app")
        .expect("index.html has <div id=\"app\">");
    root.set_inner_html(""); // the "loading" note shown until the wasm has arrived
    yew::Renderer::<checkpoint_lab::App>::with_root(root).render();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "checkpoint-lab is a web page: build it with `trunk build --release` or run `trunk serve`."
    );
    std::process::exit(2);
}
