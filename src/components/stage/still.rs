//! The stage of a run at one moment, drawn natively for the page's first
//! frame (see [`still`]).

use engine::view::{JobView, WorldView};
use yew::prelude::*;

use super::draw::{clash_of, draw, token_summary, Beside};
use super::strip::{coordinator_strip, job_banner};
use crate::i18n::Msg;
use crate::scene::{self, Fit, Scene};

/// The stage of a run at display time `now`, without the component around it:
/// the page's first frame, rendered natively (`src/first_frame.rs`: at build
/// time for the default lesson, by the classroom server for a linked moment)
/// before the wasm has arrived. The same strip, scene and markup as
/// [`Stage`](super::Stage) draws at that moment for `fit` (a phone's when
/// [`Fit::orientation`] is down), with nothing to click yet: no lane buttons,
/// which need the app. The records and barriers are painted on a canvas, which
/// only the app can do: the default lesson's first moment has none in flight,
/// and a linked moment's appear when the app mounts.
pub fn still(job: &JobView, view: &WorldView, now: f64, fit: Fit, scenario: &str) -> Html {
    let lang = fit.lang;
    let phone = fit.orientation == scene::Orientation::Down;
    let scene = scene::scene_fit(job, view, now, fit);
    let clash = clash_of(&scene);
    let summary = token_summary(job, view, lang);
    let banner = job_banner(view, now, None, lang);
    // Without a room, the stylesheet's container-unit width sizes the scene,
    // as in the app's own first layout.
    let drawn = draw(
        &scene,
        None,
        lang,
        None,
        None,
        &NodeRef::default(),
        Beside {
            picks: Html::default(),
            summary,
            clash,
        },
    );
    html! {
        // No `data-now` / `data-scenario`: the page's checks wait for the app's
        // own stage by them, and this one is gone when the app mounts.
        <section class={classes!("stage", "card", phone.then_some("stage--down"))} aria-label={lang.t(Msg::StageLabel)}
                 data-first-frame={scenario.to_string()}>
            <h2 class="visually-hidden">{ lang.t(Msg::StageLabel) }</h2>
            <div class="stage__viewport">
                { coordinator_strip(job, view, lang, banner, None) }
                <div class="scene-scroll">
                    <div class="scene-box">{ drawn }</div>
                </div>
            </div>
        </section>
    }
}

/// The scene of [`still`] (its tokens included, for a check that the default
/// lesson's first moment has none the canvas would have to paint).
pub fn still_scene(job: &JobView, view: &WorldView, now: f64, fit: Fit) -> Scene {
    scene::scene_fit(job, view, now, fit)
}
