//! The engine's speed in the page's own build (its profile, wasm-opt settings and
//! wasm-bindgen output), for `scripts/bench.sh`: headless Chromium loads the built
//! page and times [`EngineSoak::run`] over the same soak pipeline that the native
//! and Node runs step (`engine::soak`). Nothing on the page calls it.

use wasm_bindgen::prelude::*;

/// The soak pipeline's world, stepped from JavaScript.
#[wasm_bindgen]
pub struct EngineSoak {
    world: engine::World,
}

#[wasm_bindgen]
impl EngineSoak {
    /// A fresh world of the soak pipeline.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)] // a JS constructor, not a Rust API
    pub fn new() -> EngineSoak {
        EngineSoak {
            world: engine::soak::pipeline_world(),
        }
    }

    /// Step up to `events` engine events; returns how many ran.
    pub fn run(&mut self, events: u32) -> u32 {
        engine::soak::run(&mut self.world, u64::from(events)) as u32
    }
}
