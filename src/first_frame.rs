//! The page's first frame, rendered at build time: the default lesson's job
//! graph at `t = 0` inside the page's shell, written into `dist/index.html`
//! (`src/bin/first_frame.rs`, `scripts/first-frame.cjs`) so that a class sees
//! the graph one round trip after the page and its stylesheet arrive, while
//! the ~700 KiB wasm is still on its way.
//!
//! The stage is the app's own drawing ([`crate::components::stage::still`]),
//! laid out by the same [`crate::scene`] code and serialised by Yew's
//! server-side renderer, so its operators, lanes, texts and classes are the
//! ones the app draws at its first moment. Around it the top bar, the caption,
//! the transport bar, the legend and the side panel's rail carry the app's
//! classes and wording, so the stage gets the box the app will give it.
//! Everything is `inert` (and `aria-busy`) until the app mounts and replaces it:
//! nothing can be clicked that the app does not yet answer.
//!
//! What the static page cannot know is left to the browser: the language
//! (`?lang=` or the browser's, decided by a script in the head, as
//! [`crate::i18n::detect`] decides it; both languages' frames are in the page),
//! the phone's layout (a media query picks the graph running down), and the
//! screen's size (the scene is fitted to a projector's stage at 1280×720, the
//! size a class most often sees; elsewhere the browser scales it into the stage,
//! and the app fits it again when it mounts). Text widths are the layout's
//! estimate ([`crate::scene::geometry::estimated_width`]): the page's fonts can
//! only be measured in the browser.

use std::rc::Rc;

use engine::view::{JobView, WorldView};
use yew::prelude::*;

use crate::components::icons;
use crate::components::side_panel::Tab;
use crate::components::stage;
use crate::hooks::LangContext;
use crate::i18n::{Lang, Msg};
use crate::labels;
use crate::playback::{Link, Mode, DEFAULT_SCENARIO, SPEEDS};
use crate::scene::{self, Fit, Orientation};

/// The scene box's content at 1280×720 (CSS px, the box less its padding):
/// what the app's stage measures there with the side panel closed, so the
/// first frame's graph is where the app draws it on a classroom projector.
pub const PROJECTOR_BOX: (f64, f64) = (1168.0, 461.0);

/// The students' bar's height at 1280×720 with its margin (CSS px): what it
/// takes from the stage when the classroom server draws a student's frame.
pub const CLASS_BAR_H: f64 = 38.0;

/// The scene box's content width on a phone 390 px wide.
pub const PHONE_BOX_W: f64 = 364.0;

/// The default lesson's run at its first moment, as the app starts it.
pub struct FirstMoment {
    /// The lesson.
    pub scenario: String,
    /// Its checkpointing mode (the app's default).
    pub mode: Mode,
    /// The run's seed.
    pub seed: u64,
    /// The job graph.
    pub job: Rc<JobView>,
    /// The world at the moment.
    pub view: Rc<WorldView>,
    /// The display time (ms) the stage is drawn at: the moment's.
    pub now: f64,
    /// The scrubber's end.
    pub horizon: u64,
    /// The "skip quiet" toggle's start.
    pub skip_quiet: bool,
    /// The speed's index in [`SPEEDS`].
    pub speed: usize,
}

/// Why the default lesson has no first frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FirstFrameError {
    /// The default lesson does not load: the message the page would show.
    Load(String),
    /// It loads but gives no run to draw.
    NoRun,
}

impl std::fmt::Display for FirstFrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FirstFrameError::Load(message) => f.write_str(message),
            FirstFrameError::NoRun => write!(f, "{DEFAULT_SCENARIO}: no run"),
        }
    }
}

impl std::error::Error for FirstFrameError {}

impl FirstMoment {
    /// The app's initial state for the default lesson (no address-bar choices).
    pub fn default_lesson() -> Result<FirstMoment, FirstFrameError> {
        FirstMoment::at(&Link::default())
    }

    /// The app's initial state for an address that names a moment
    /// ([`Link::open`], as the page opens it): the classroom server draws it
    /// for a linked lesson before the wasm arrives.
    pub fn at(link: &Link) -> Result<FirstMoment, FirstFrameError> {
        let state = link.open();
        if let Some(e) = &state.error {
            return Err(FirstFrameError::Load(e.clone()));
        }
        let (Some(job), Some(view)) = (state.job.clone(), state.view.clone()) else {
            return Err(FirstFrameError::NoRun);
        };
        Ok(FirstMoment {
            scenario: state.scenario.clone(),
            mode: state.mode,
            seed: state.seed,
            job,
            view,
            now: state.display_t,
            horizon: state.horizon,
            skip_quiet: state.skip_quiet,
            speed: state.speed,
        })
    }

    /// What the stage fits the scene to in `lang`: a projector's stage, or a
    /// phone's (the graph running down).
    pub fn fit(&self, lang: Lang, orientation: Orientation) -> Fit {
        self.fit_in(lang, orientation, false)
    }

    /// [`FirstMoment::fit`], less the students' bar's height when the frame
    /// is drawn for a student of a class.
    pub fn fit_in(&self, lang: Lang, orientation: Orientation, in_class: bool) -> Fit {
        let (w, h) = PROJECTOR_BOX;
        let h = if in_class { h - CLASS_BAR_H } else { h };
        let size = match orientation {
            Orientation::Across => (w, h),
            Orientation::Down => (PHONE_BOX_W, h),
        };
        // `stage_fit` subtracts the box's padding from what it is given.
        scene::text_fit::stage_fit(
            Some(((size.0 + 12.0) as u32, (size.1 + 10.0) as u32)),
            1.0,
            lang,
            orientation,
        )
    }
}

/// Properties of [`Frame`].
#[derive(Properties, Clone)]
pub struct FrameProps {
    /// The run at its first moment.
    pub first: Rc<FirstMoment>,
    /// The language of this frame.
    pub lang: Lang,
    /// Drawn by the classroom server for a student: with the students' bar
    /// the app adds when it hears the class ("following the lecturer").
    pub in_class: bool,
}

impl PartialEq for FrameProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.first, &other.first)
            && self.lang == other.lang
            && self.in_class == other.in_class
    }
}

/// The whole first frame in one language.
#[component]
pub fn Frame(props: &FrameProps) -> Html {
    let lang = props.lang;
    let context = LangContext {
        lang,
        set_lang: Callback::noop(),
    };
    html! {
        <ContextProvider<LangContext> {context}>
            <div class={classes!("app", "first-frame", props.in_class.then_some("app--class"))} data-lang={lang.code()} lang={lang.html_lang()} inert=true aria-busy="true">
                { topbar(&props.first, lang) }
                if props.in_class {
                    <div class="class-bar class-bar--following" data-state="following">
                        <span class="class-bar__dot" aria-hidden="true"></span>
                        <span class="class-bar__text">{ crate::presenter::notes::label("class_following", lang) }</span>
                    </div>
                }
                <main class="workspace">
                    <div class="show">
                        <div class="stages">
                            <div class="first-frame__across">{ stage_of(&props.first, lang, Orientation::Across, props.in_class) }</div>
                            <div class="first-frame__down">{ stage_of(&props.first, lang, Orientation::Down, props.in_class) }</div>
                        </div>
                        { caption(lang) }
                        { transport(&props.first, lang) }
                        <crate::components::Legend replaying={false} />
                    </div>
                    { rail(lang) }
                </main>
            </div>
        </ContextProvider<LangContext>>
    }
}

fn stage_of(first: &FirstMoment, lang: Lang, orientation: Orientation, in_class: bool) -> Html {
    stage::still(
        &first.job,
        &first.view,
        first.now,
        first.fit_in(lang, orientation, in_class),
        &first.scenario,
    )
}

/// The top bar as the app draws it for the default lesson.
fn topbar(first: &FirstMoment, lang: Lang) -> Html {
    let titles = crate::data::lesson_titles();
    let projector_label = format!("A⁺ {}", lang.t(Msg::ProjectorMode));
    html! {
        <header class="topbar" role="banner">
            { crate::components::topbar::identity(lang) }
            <div class="topbar__run" role="group" aria-label={lang.t(Msg::ToolbarLabel)}>
                <label class="toolbar__field">
                    <span class="visually-hidden">{ lang.t(Msg::ScenarioLabel) }</span>
                    <select class="select select--scenario" title={lang.t(Msg::ScenarioLabel)}>
                        { for titles.iter().map(|(name, title)| {
                            let title = title.as_ref().map_or_else(|| name.to_string(), |t| lang.loc(t).to_string());
                            html! { <option value={name.to_string()} selected={*name == first.scenario}>{ title }</option> }
                        }) }
                    </select>
                </label>
                <label class="toolbar__field">
                    <span class="visually-hidden">{ lang.t(Msg::ModeLabel) }</span>
                    <select class="select select--mode" title={lang.t(Msg::ModeLabel)}>
                        { for Mode::CHOICES.iter().map(|m| html! {
                            <option value={m.key()} selected={*m == first.mode}>{ labels::mode(lang, *m) }</option>
                        }) }
                    </select>
                </label>
            </div>
            <div class="topbar__lesson">
                <button type="button" class="text-button text-button--primary lesson-bar__tour">
                    { crate::lessons::wording::t("tour_start", lang) }
                </button>
                <button type="button" class="text-button" aria-pressed="false">{ lang.t(Msg::TwinView) }</button>
                <button type="button" class="text-button first-frame__drill" aria-pressed="false">{ lang.t(Msg::DrillOpen) }</button>
            </div>
            <div class="topbar__tools">
                <div class="menu">
                    <button type="button" class="icon-button" aria-label={lang.t(Msg::MoreTools)}>{ icons::more() }</button>
                </div>
                <button type="button" class="icon-button icon-button--text" aria-pressed="false" aria-label={projector_label}>{ "A⁺" }</button>
                <button type="button" class="icon-button" aria-pressed="false" aria-label={lang.t(Msg::Fullscreen)}>{ icons::fullscreen() }</button>
                <button type="button" class="icon-button icon-button--text" aria-label={format!("? {}", lang.t(Msg::Help))}>{ "?" }</button>
                <crate::components::lang_switch::LangSwitch />
            </div>
        </header>
    }
}

/// The caption bar before anything is narrated: how to start (the phone's
/// wording where the screen is touched, see `style.css`).
fn caption(lang: Lang) -> Html {
    html! {
        <div class="caption" role="group" aria-label={lang.t(Msg::CaptionLabel)}>
            <p class="caption__line">
                <span class="caption__text first-frame__pointer">{ lang.t(Msg::CaptionIdle) }</span>
                <span class="caption__text first-frame__touch">{ lang.t(Msg::CaptionIdleTouch) }</span>
            </p>
        </div>
    }
}

/// The transport bar at `t = 0`: the scrubber without its markers (the app
/// places them from the whole run).
fn transport(first: &FirstMoment, lang: Lang) -> Html {
    html! {
        <div class="transport" role="group" aria-label={lang.t(Msg::TimelineLabel)}>
            <div class="transport__buttons">
                <button type="button" class="tool-button" aria-label={lang.t(Msg::StepBack)}>{ icons::step_back() }</button>
                <button type="button" class="tool-button tool-button--primary" aria-label={lang.t(Msg::Play)} aria-pressed="false">{ icons::play() }</button>
                <button type="button" class="tool-button" aria-label={lang.t(Msg::StepForward)}>{ icons::step_forward() }</button>
            </div>
            <label class="transport__field">
                <span class="visually-hidden">{ lang.t(Msg::SpeedLabel) }</span>
                <select class="select select--speed" title={lang.t(Msg::SpeedLabel)}>
                    { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                        <option value={i.to_string()} selected={i == first.speed}>{ format!("{s}×") }</option>
                    }) }
                </select>
            </label>
            <label class="toggle">
                <input type="checkbox" checked={first.skip_quiet} />
                <span class="toggle__text">{ lang.t(Msg::SkipQuiet) }</span>
            </label>
            <label class="toggle">
                <input type="checkbox" />
                <span class="toggle__text">{ lang.t(Msg::AutoPause) }</span>
            </label>
            <div class="scrubber">
                <div class="scrubber__markers"></div>
                <input type="range" class="scrubber__range" min="0" max={crate::components::transport::scrubber_end(first.horizon).to_string()}
                       step="1" value={(first.now as u64).to_string()} aria-label={lang.t(Msg::ScrubberLabel)} />
            </div>
            <output class="toolbar__clock">{ lang.t(Msg::Clock).replace("{t}", &first.view.now.to_string()) }</output>
            <div class="transport__actions">
                <button type="button" class="text-button text-button--checkpoint">{ lang.t(Msg::TriggerCheckpoint) }</button>
                <button type="button" class="text-button">{ lang.t(Msg::Savepoint) }</button>
            </div>
        </div>
    }
}

/// The side panel's rail of tabs, closed.
fn rail(lang: Lang) -> Html {
    html! {
        <aside class="side-panel card" data-open="false" aria-label={lang.t(Msg::PanelLabel)}>
            <div class="side-panel__head">
                <div class="tabs" role="tablist" aria-label={lang.t(Msg::PanelLabel)} aria-orientation="vertical">
                    { for Tab::ALL.iter().enumerate().map(|(i, tab)| html! {
                        <button type="button" role="tab" class="tabs__tab" data-tab={tab.key()}
                                aria-selected={if i == 0 { "true" } else { "false" }}>
                            { tab.icon() }<span class="tabs__label">{ tab.label(lang) }</span>
                        </button>
                    }) }
                </div>
            </div>
        </aside>
    }
}

/// The palette's custom properties as the app installs them
/// ([`crate::document::install_palette`], which keeps a `#palette` it finds):
/// the first frame's colours before the wasm has arrived.
pub fn palette_style() -> String {
    format!(
        "<style id=\"palette\">{}</style>",
        crate::scene::palette::css_variables()
    )
}

/// The first frame in `lang`, as HTML (no hydration marks: the app mounts
/// afresh and replaces it).
pub fn render(first: &Rc<FirstMoment>, lang: Lang) -> String {
    render_with(first, lang, false)
}

/// The first frame in `lang` as the classroom server draws it for a student
/// (`in_class`: with the students' bar), or as the build does.
pub fn render_with(first: &Rc<FirstMoment>, lang: Lang, in_class: bool) -> String {
    let props = FrameProps {
        first: first.clone(),
        lang,
        in_class,
    };
    futures::executor::block_on(
        yew::LocalServerRenderer::<Frame>::with_props(props)
            .hydratable(false)
            .render(),
    )
}

/// The scenes the first frame draws (across and down, in each language), for
/// the checks: a first moment must have nothing in flight, since the canvas
/// that paints records and barriers is the app's.
pub fn scenes(first: &FirstMoment) -> Vec<(Lang, Orientation, scene::Scene)> {
    let mut out = Vec::new();
    for lang in Lang::ALL {
        for orientation in [Orientation::Across, Orientation::Down] {
            out.push((
                lang,
                orientation,
                stage::still_scene(
                    &first.job,
                    &first.view,
                    first.now,
                    first.fit(lang, orientation),
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first() -> Rc<FirstMoment> {
        Rc::new(FirstMoment::default_lesson().expect("the default lesson loads"))
    }

    /// Each language's frame draws every operator and subtask of the first
    /// lesson, across and down, with the scene the layout computes for that fit,
    /// and nothing in it answers a click or carries the app's ids.
    #[test]
    fn the_frame_is_the_first_lessons_graph_in_each_language() {
        let first = first();
        assert_eq!(first.scenario, DEFAULT_SCENARIO);
        assert_eq!(first.view.now, 0);
        for lang in Lang::ALL {
            let html = render(&first, lang);
            assert!(
                html.starts_with(&format!(
                    "<div data-lang=\"{}\" lang=\"{}\"",
                    lang.code(),
                    lang.html_lang()
                )),
                "{}",
                &html[..80]
            );
            assert!(html.contains("inert") && html.contains("aria-busy=\"true\""));
            for o in &first.job.operators {
                let name = format!("class=\"operator__name\">{}</text>", o.name);
                assert_eq!(html.matches(&name).count(), 2, "{} in {lang:?}", o.name);
            }
            for t in &first.job.tasks {
                let lane = format!("data-lane=\"{}\"", t.name);
                assert_eq!(html.matches(&lane).count(), 2, "{} in {lang:?}", t.name);
            }
            for orientation in [Orientation::Across, Orientation::Down] {
                let scene = stage::still_scene(
                    &first.job,
                    &first.view,
                    first.now,
                    first.fit(lang, orientation),
                );
                let view_box = format!("viewBox=\"0 0 {:.1} {:.1}\"", scene.width, scene.height);
                assert!(html.contains(&view_box), "{view_box} in {lang:?}");
            }
            assert!(html.contains(lang.t(Msg::NoPending)), "{lang:?}");
            // The app's controls are found by id (and the page checks click
            // `#play` as soon as it is there): the frame has none of them.
            for id in [
                "play",
                "scenario-select",
                "clock",
                "scrubber",
                "tab-coordinator",
            ] {
                assert!(!html.contains(&format!("id=\"{id}\"")), "#{id}");
            }
            assert!(!html.contains("lane-button"), "lane buttons need the app");
        }
    }

    /// The first moment has no records or barriers in flight: the canvas that
    /// would paint them is the app's.
    #[test]
    fn the_first_moment_has_nothing_in_flight() {
        for (lang, orientation, scene) in scenes(&first()) {
            assert!(
                scene.tokens.is_empty() && scene.overflows.is_empty(),
                "{lang:?} {orientation:?}"
            );
        }
    }

    /// The frame is fitted to the boxes the app gives its stage: a projector's
    /// graph runs across, a phone's down.
    #[test]
    fn the_frame_is_fitted_to_a_projector_and_a_phone() {
        let first = first();
        let across = first.fit(Lang::Zh, Orientation::Across);
        assert_eq!(across.orientation, Orientation::Across);
        assert_eq!(across.size, Some(PROJECTOR_BOX));
        let down = first.fit(Lang::En, Orientation::Down);
        assert_eq!(down.orientation, Orientation::Down);
        assert_eq!(down.size.map(|s| s.0), Some(PHONE_BOX_W));
        assert!(palette_style().starts_with("<style id=\"palette\">:root"));
    }
}
