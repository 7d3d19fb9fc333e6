//! The stage: the job graph drawn from a [`Scene`] — operators, one lane per
//! subtask, channels with records, barriers and queues — plus the restart
//! countdown and how the job ended, an error message, and the choice of a
//! subtask (its state opens in the side panel's drawer). The records and
//! barriers themselves are painted on a canvas over the SVG
//! ([`crate::components::token_layer`]), repainted when its box is resized.
//!
//! Each lane has a real `<button>` laid over the SVG (positioned in percentages of
//! the scene), so it is reachable with the keyboard and named in the current
//! language. (A `foreignObject` would not do: Yew creates its children in the SVG
//! namespace.)
//!
//! The picture itself is [`draw`] (from a [`Scene`], which places every word it
//! writes), the strip and banners above it [`strip`], the build-time first frame
//! [`still()`], and the touch swipe that steps the run [`swipe`].

mod draw;
mod still;
mod strip;
mod swipe;

use std::cell::RefCell;
use std::rc::Rc;

use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::components::token_layer::TokenLayer;
use crate::drill::pick::StagePick;
use crate::hooks::{use_lang, use_reduced_motion, use_resize_observer};
use crate::i18n::Msg;
use crate::playback::Action;
use crate::scene::{self, text_fit};

pub use draw::token_summary;
use draw::{clash_of, draw, pick_buttons, Beside};
pub use still::{still, still_scene};
pub use strip::explain_failure;
use strip::{coordinator_strip, job_banner};
use swipe::use_swipe;

/// Properties of [`Stage`].
#[derive(Properties, PartialEq)]
pub struct StageProps {
    /// The job graph.
    pub job: Option<Rc<JobView>>,
    /// The world now.
    pub view: Option<Rc<WorldView>>,
    /// Display time in ms.
    pub t: f64,
    /// Playback actions (a swipe steps; the error's dismiss).
    pub dispatch: Callback<Action>,
    /// The last error, shown above the stage.
    pub error: Option<String>,
    /// In the twin view: which run this stage shows (its checkpointing mode).
    #[prop_or_default]
    pub caption: Option<AttrValue>,
    /// The subtask whose state the side panel shows.
    #[prop_or_default]
    pub selected: Option<usize>,
    /// A lane was clicked.
    #[prop_or_default]
    pub on_select: Callback<usize>,
    /// The run's restart strategy (the failure explanation's numbers).
    #[prop_or_default]
    pub restart: Option<engine::scenario::RestartConfig>,
    /// Text size: 1, or `PROJECTOR_ZOOM` in projector mode.
    #[prop_or(1.0)]
    pub zoom: f64,
    /// The lesson the run plays (`data-scenario`: the page's checks wait for the
    /// stage of the lesson they chose, which may still be fetching its data).
    #[prop_or_default]
    pub scenario: AttrValue,
    /// An exercise asks for records: each one it may mean becomes a button.
    #[prop_or_default]
    pub pick: Option<StagePick>,
}

/// The tokens of the last render, for the canvas.
#[derive(Default)]
struct Frame {
    width: f64,
    height: f64,
    tokens: Vec<scene::Token>,
    overflows: Vec<scene::Overflow>,
    braces: Vec<scene::braces::Brace>,
}

fn paint(canvas: &NodeRef, frame: &RefCell<Frame>, layer: &RefCell<TokenLayer>) {
    if let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() {
        let f = frame.borrow();
        if f.width > 0.0 && f.height > 0.0 {
            layer
                .borrow_mut()
                .paint(&el, f.width, f.height, &f.tokens, &f.overflows, &f.braces);
        }
    }
}

/// The stage; see the module documentation.
#[component]
pub fn Stage(props: &StageProps) -> Html {
    let lang = use_lang().lang;
    // Reduced motion: values do not travel, the flows' end state is shown.
    let still = use_reduced_motion();
    // The token canvas: painted imperatively after every render (outside the
    // virtual DOM), and again whenever its box changes size.
    let canvas = use_node_ref();
    let frame = use_mut_ref(Frame::default);
    let layer = use_mut_ref(TokenLayer::default);
    {
        let (canvas, frame, layer) = (canvas.clone(), frame.clone(), layer.clone());
        use_effect(move || {
            paint(&canvas, &frame, &layer);
        });
    }
    let has_scene = props.job.is_some() && props.view.is_some();
    {
        let (node, frame, layer) = (canvas.clone(), frame.clone(), layer.clone());
        let on_size = Callback::from(move |_: (f64, f64)| {
            if let Some(el) = node.cast::<web_sys::HtmlCanvasElement>() {
                layer.borrow_mut().resized(&el);
            }
            paint(&node, &frame, &layer);
        });
        use_resize_observer(canvas.clone(), has_scene, on_size);
    }
    // The box the scene is fitted to (see `scene::layout`).
    let scene_box = use_node_ref();
    let box_size = use_state_eq(|| None::<(u32, u32)>);
    {
        let box_size = box_size.setter();
        let on_size =
            Callback::from(move |(w, h): (f64, f64)| box_size.set(Some((w as u32, h as u32))));
        use_resize_observer(scene_box.clone(), has_scene, on_size);
    }
    let (onpointerdown, onpointerup) = use_swipe(props.dispatch.clone());
    // A phone's screen: the graph runs top to bottom (read at each render; a
    // window crossing the width resizes the scene box, which renders again).
    let phone = crate::document::is_phone_width();
    let body = match (&props.job, &props.view) {
        (Some(job), Some(view)) => {
            let orientation = if phone {
                scene::Orientation::Down
            } else {
                scene::Orientation::Across
            };
            let fit = text_fit::stage_fit(*box_size, props.zoom, lang, orientation);
            let room = if phone { None } else { fit.size };
            let mut scene = scene::scene_fit(job, view, props.t, fit);
            if still {
                // Reduced motion: nothing travels; the store is the end state.
                scene.flows.chips.clear();
            }
            let clash = clash_of(&scene);
            let summary = token_summary(job, view, lang);
            let picks = props
                .pick
                .as_ref()
                .map(|p| pick_buttons(&scene, p, lang))
                .unwrap_or_default();
            // The tokens go to the canvas, painted after this render commits.
            *frame.borrow_mut() = Frame {
                width: scene.width,
                height: scene.height,
                tokens: std::mem::take(&mut scene.tokens),
                overflows: std::mem::take(&mut scene.overflows),
                braces: std::mem::take(&mut scene.braces),
            };
            let banner = job_banner(view, props.t, props.restart.as_ref(), lang);
            html! {
                <>
                    { coordinator_strip(job, view, lang, banner, props.caption.clone()) }
                    // On a narrow window the graph keeps a readable width and pans
                    // sideways inside this scroller (the page itself never scrolls
                    // sideways); on a phone it runs top to bottom at the screen's
                    // width and the page scrolls down it.
                    <div class="scene-scroll">
                        <div class="scene-box" ref={scene_box.clone()} {onpointerdown} {onpointerup}>
                            { draw(&scene, room, lang, props.selected, Some(&props.on_select), &canvas, Beside { picks, summary, clash }) }
                        </div>
                    </div>
                </>
            }
        }
        _ => html! {
            <div class="stage__empty">
                <p class="stage__empty-title">{ lang.t(Msg::StageEmptyTitle) }</p>
                <p class="stage__empty-hint">{ lang.t(Msg::StageEmptyHint) }</p>
            </div>
        },
    };
    let on_dismiss = {
        let d = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| d.emit(Action::ClearError))
    };
    let label = props.caption.as_ref().map_or_else(
        || lang.t(Msg::StageLabel).to_string(),
        |c| format!("{} · {c}", lang.t(Msg::StageLabel)),
    );
    // The engine's moment, for the page's own audits (scripts/key-moments.cjs
    // compares what is drawn with `lab run --trace` at this simulated time).
    let now = props.view.as_ref().map(|v| v.now.to_string());
    html! {
        <section class={classes!("stage", "card", phone.then_some("stage--down"))} aria-label={label} data-now={now} data-scenario={props.scenario.clone()}>
            <h2 class="visually-hidden">{ lang.t(Msg::StageLabel) }</h2>
            if let Some(error) = &props.error {
                <div class="stage__error" role="alert">
                    <strong>{ lang.t(Msg::ErrorPrefix) }</strong>{ " " }<span class="stage__error-text">{ error.clone() }</span>
                    <button type="button" class="text-button" onclick={on_dismiss}>{ lang.t(Msg::Dismiss) }</button>
                </div>
            }
            <div class="stage__viewport">
                { body }
            </div>
        </section>
    }
}
