//! The lesson tools' components: the top bar's tour and compare buttons, the
//! menu's share / export / import / edit / glossary items, the tour card and the
//! glossary (in the side panel), the notices (in the caption bar) and the lesson
//! pair's difference in committed output. Their state is
//! [`crate::hooks::lessons`]'s.

use crate::drill::breakable;
use std::rc::Rc;

use yew::prelude::*;

use crate::components::sources_line::SourcesLine;
use crate::hooks::lessons::{Lessons, Showing};
use crate::hooks::touch;
use crate::hooks::use_lang;
use crate::lessons::glossary;
use crate::lessons::notes::NotesCallout;
use crate::lessons::pair;
use crate::lessons::tour;
use crate::lessons::wording::t;

pub use crate::hooks::lessons::STORAGE_KEY;

/// Properties of the lesson components that show [`Lessons`].
#[derive(Properties, PartialEq)]
pub struct LessonProps {
    /// The lesson tools' state.
    pub lessons: Lessons,
}

/// The top bar's lesson button: start the tour. (Lesson pairs are offered in
/// the tools menu; "stop comparing" sits with the pair's difference.)
#[component]
pub fn LessonActions(props: &LessonProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.lessons;
    let on_start = l.go.reform(|_: MouseEvent| 0);
    html! {
        <>
            if l.tour.is_some() && l.showing.is_none() {
                <button type="button" class="text-button text-button--primary lesson-bar__tour" id="tour-start" onclick={on_start}>
                    { t("tour_start", lang) }
                </button>
            }
        </>
    }
}

/// Properties of [`LessonMenuItems`].
#[derive(Properties, PartialEq)]
pub struct LessonMenuItemsProps {
    /// The lesson tools' state.
    pub lessons: Lessons,
    /// The current scenario.
    pub scenario: AttrValue,
    /// The lesson shown beside this one in the twin view, if any.
    #[prop_or_default]
    pub comparing: Option<AttrValue>,
    /// Opens a lesson pair in the twin view.
    #[prop_or_default]
    pub on_compare: Callback<Option<AttrValue>>,
    /// The glossary is open in the side panel.
    pub glossary_open: bool,
    /// The editor is open in the side panel.
    pub editor_open: bool,
}

/// The menu's lesson items: the lesson pairs to compare side by side, glossary,
/// edit, share, export, import, and the scenario saved from an earlier visit.
#[component]
pub fn LessonMenuItems(props: &LessonMenuItemsProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.lessons;
    let (glossary_open, editor_open) = (props.glossary_open, props.editor_open);
    html! {
        <>
            for partner in pair::partners(&props.scenario) {
                if props.comparing.as_deref() != Some(partner) {
                    <button type="button" class="menu__item lesson-bar__compare" id={format!("compare-{partner}")}
                            role="menuitem" data-partner={partner}
                            title={t("pair_compare_hint", lang).replace("{name}", partner)}
                            onclick={props.on_compare.reform(move |_: MouseEvent| Some(AttrValue::from(partner)))}>
                        { t("pair_compare", lang).replace("{name}", partner) }
                    </button>
                }
            }
            <button type="button" class="menu__item" id="glossary-button" role="menuitem"
                    aria-expanded={glossary_open.to_string()} aria-controls="glossary"
                    onclick={l.show_glossary.reform(move |_: MouseEvent| !glossary_open)}>
                { t("glossary_button", lang) }
            </button>
            <button type="button" class="menu__item" id="editor-button" role="menuitem"
                    aria-expanded={editor_open.to_string()} aria-controls="editor"
                    onclick={l.show_editor.reform(move |_: MouseEvent| !editor_open)}>
                { t("editor_button", lang) }
            </button>
            <button type="button" class="menu__item" id="share-button" role="menuitem"
                    onclick={l.share.reform(|_: MouseEvent| ())}>
                { t("share_button", lang) }
            </button>
            <button type="button" class="menu__item" id="export-button" role="menuitem"
                    onclick={l.export.reform(|_: MouseEvent| ())}>
                { t("export_button", lang) }
            </button>
            <label class="menu__item lesson-bar__import" role="menuitem">
                { t("import_label", lang) }
                <input type="file" id="import-input" accept="application/json,.json" onchange={l.import.clone()}
                       class="visually-hidden" />
            </label>
            if let Some(name) = l.saved_name.clone() {
                <button type="button" class="menu__item" id="restore-saved" role="menuitem"
                        onclick={l.restore_saved.reform(|_: MouseEvent| ())}
                        title={t("restore_saved", lang)} aria-label={format!("{} {name}", t("restore_saved", lang))}>
                    { format!("↺ {name}") }
                </button>
            }
        </>
    }
}

/// The notices and errors of the lesson tools (a share link made, a link or a
/// file that could not be used), in the caption bar.
#[component]
pub fn LessonNotices(props: &LessonProps) -> Html {
    let lang = use_lang().lang;
    let l = &props.lessons;
    let dismiss = l.dismiss.reform(|_: MouseEvent| ());
    html! {
        <>
            if let Some(why) = &l.link_error {
                <p class="lesson-bar__error share-error" role="alert">
                    <strong>{ t("share_bad_link", lang) }</strong>{ " " }<span class="share-error__why">{ why.clone() }</span>
                    { " " }{ t("share_bad_link_after", lang) }{ " " }
                    <button type="button" class="text-button" onclick={dismiss.clone()}>{ t("dismiss", lang) }</button>
                </p>
            }
            if let Some(why) = &l.import_error {
                <p class="lesson-bar__error import-error" role="alert">
                    <strong>{ t("import_error", lang) }</strong>{ " " }<span>{ why.clone() }</span>{ " " }
                    <button type="button" class="text-button" onclick={dismiss.clone()}>{ t("dismiss", lang) }</button>
                </p>
            }
            if let Some(text) = &l.notice {
                <p class="lesson-bar__notice" role="status">{ text.clone() }{ " " }
                    <button type="button" class="text-button" onclick={dismiss}>{ t("dismiss", lang) }</button>
                </p>
            }
            <style>{ l.highlight_css.clone() }</style>
        </>
    }
}

/// Properties of [`PairDiff`].
#[derive(Properties, PartialEq)]
pub struct PairDiffProps {
    /// The main run's scenario name.
    pub this_name: AttrValue,
    /// The partner's scenario name.
    pub other_name: AttrValue,
    /// The main run now.
    pub this: Option<Rc<engine::view::WorldView>>,
    /// The partner now (it follows the main clock).
    pub other: Option<Rc<engine::view::WorldView>>,
    /// Ends the comparison.
    #[prop_or_default]
    pub on_stop: Callback<()>,
    /// Each run's failure-free reference (its verdicts by origin).
    #[prop_or_default]
    pub this_reference: Option<Rc<engine::verdict::Reference>>,
    #[prop_or_default]
    pub other_reference: Option<Rc<engine::verdict::Reference>>,
}

/// A run's verdicts by origin (committed, duplicates, not committed yet, lost)
/// against its failure-free reference, summed over its sinks.
fn verdict_counts(
    view: &engine::view::WorldView,
    reference: Option<&Rc<engine::verdict::Reference>>,
) -> Option<engine::verdict::VerdictCounts> {
    let mut c = engine::verdict::VerdictCounts::default();
    for v in reference?.judge(view) {
        c.committed += v.counts.committed;
        c.duplicates += v.counts.duplicates;
        c.not_yet += v.counts.not_yet;
        c.lost += v.counts.lost;
    }
    Some(c)
}

/// Whether the pair's per-run verdict lines say something the key table does not:
/// one run makes duplicates the other does not (exactly-once vs plain). Otherwise
/// the lines are left out, so the two stages keep their height with a lesson
/// pair's chart open (the chart tells the rest).
fn verdicts_tell(ca: &engine::verdict::VerdictCounts, cb: &engine::verdict::VerdictCounts) -> bool {
    ca.duplicates != cb.duplicates
}

/// One run's verdicts as a line of the pair's summary.
fn verdict_line(name: &str, c: &engine::verdict::VerdictCounts, lang: crate::i18n::Lang) -> Html {
    use crate::i18n::Msg;
    let n = |m: Msg, x: u32| lang.t(m).replace("{n}", &x.to_string());
    html! {
        <li class="pair-diff__run" data-run={name.to_string()} data-duplicates={c.duplicates.to_string()}
            data-not-yet={c.not_yet.to_string()} data-lost={c.lost.to_string()}>
            <strong>{ format!("{name}: ") }</strong>
            { n(Msg::VerdictCommitted, c.committed) }{ " · " }
            <span class={classes!((c.duplicates > 0).then_some("pair-diff__dups"))}>{ n(Msg::VerdictDuplicates, c.duplicates) }</span>{ " · " }
            { n(Msg::VerdictNotYet, c.not_yet) }{ " · " }
            { n(Msg::VerdictLost, c.lost) }
        </li>
    }
}

/// The difference between a lesson pair's committed output at this moment, per
/// sink and key: the same, or how many duplicates / missing values on which side.
#[component]
pub fn PairDiff(props: &PairDiffProps) -> Html {
    let lang = use_lang().lang;
    let (Some(a), Some(b)) = (&props.this, &props.other) else {
        return html! {};
    };
    let rows = pair::compare(&a.sinks, &b.sinks);
    let (this, other) = (props.this_name.as_str(), props.other_name.as_str());
    let counts_a = verdict_counts(a, props.this_reference.as_ref());
    let counts_b = verdict_counts(b, props.other_reference.as_ref());
    let differ = rows.iter().filter(|r| !r.is_equal()).count();
    let summary = if rows.is_empty() {
        t("pair_nothing_yet", lang).to_string()
    } else if differ == 0 {
        t("pair_all_equal", lang).to_string()
    } else {
        t("pair_some_differ", lang)
            .replace("{n}", &differ.to_string())
            .replace("{total}", &rows.len().to_string())
    };
    let verdict = |r: &pair::KeyDiff| -> String {
        if r.is_equal() {
            return t("pair_same", lang).to_string();
        }
        let mut parts = Vec::new();
        // What one run has not committed that the other has: not committed yet
        // while it runs (never "missing"), lost once it has ended.
        let absent = |v: &engine::view::WorldView| {
            if matches!(
                v.status,
                engine::JobStatus::Finished
                    | engine::JobStatus::Failed
                    | engine::JobStatus::Canceled
            ) {
                "pair_lost"
            } else {
                "pair_missing"
            }
        };
        for (n, name, key) in [
            (r.this_duplicates, this, "pair_duplicates"),
            (r.other_duplicates, other, "pair_duplicates"),
            (r.this_missing, this, absent(a)),
            (r.other_missing, other, absent(b)),
        ] {
            if n > 0 {
                parts.push(
                    t(key, lang)
                        .replace("{n}", &n.to_string())
                        .replace("{name}", name),
                );
            }
        }
        parts.join(lang_sep(lang))
    };
    // Only the keys that differ are listed (all equal: the summary says so), on
    // one line that scrolls sideways: the two stages keep their height.
    html! {
        <section class="pair-diff" id="pair-diff" aria-live="polite">
            <h2 class="pair-diff__heading visually-hidden">
                { t("pair_heading", lang).replace("{this}", this).replace("{other}", other) }
            </h2>
            <button type="button" class="text-button lesson-bar__compare" id="compare-stop"
                    onclick={props.on_stop.reform(|_: MouseEvent| ())}>
                { t("pair_stop", lang) }
            </button>
            <p class="pair-diff__summary" data-differ={differ.to_string()}>{ summary }</p>
            if let (Some(ca), Some(cb)) = (&counts_a, &counts_b) {
                if verdicts_tell(ca, cb) {
                    <ul class="pair-diff__runs">
                        { verdict_line(this, ca, lang) }
                        { verdict_line(other, cb, lang) }
                    </ul>
                }
            }
            if differ > 0 {
                <table class="pair-diff__table">
                    <thead><tr>
                        <th scope="col">{ t("pair_key", lang) }</th>
                        <th scope="col">{ this }</th>
                        <th scope="col">{ other }</th>
                        <th scope="col">{ t("pair_verdict", lang) }</th>
                    </tr></thead>
                    <tbody>
                        for r in rows.iter().filter(|r| !r.is_equal()) {
                            <tr class="pair-diff__row pair-diff__row--differs" data-key={r.key.clone()}>
                                <th scope="row">{ format!("{} / {}", r.sink, r.key) }</th>
                                <td>{ r.this }</td>
                                <td>{ r.other }</td>
                                <td class="pair-diff__verdict">{ verdict(r) }</td>
                            </tr>
                        }
                    </tbody>
                </table>
            }
        </section>
    }
}

/// Scrolls the nearest scrolling box around `el` (the tour card, or the drawer)
/// just enough to show it: its end at the box's bottom, or its start at the box's
/// top when it is taller than the box, so a long answer is read from its first
/// line. Only that box moves — `scrollIntoView` would also scroll the drawer and
/// the page behind the card.
fn reveal_in_scroller(el: &web_sys::Element) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let mut at = el.parent_element();
    while let Some(scroller) = at {
        let scrolls = window
            .get_computed_style(&scroller)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("overflow-y").ok())
            .is_some_and(|o| o == "auto" || o == "scroll");
        if scrolls && scroller.scroll_height() > scroller.client_height() {
            let (b, r) = (
                scroller.get_bounding_client_rect(),
                el.get_bounding_client_rect(),
            );
            let delta = if r.height() >= b.height() || r.top() < b.top() {
                r.top() - b.top()
            } else if r.bottom() > b.bottom() {
                r.bottom() - b.bottom()
            } else {
                0.0
            };
            scroller.set_scroll_top(scroller.scroll_top() + delta.round() as i32);
            return;
        }
        at = scroller.parent_element();
    }
}

fn lang_sep(lang: crate::i18n::Lang) -> &'static str {
    match lang {
        crate::i18n::Lang::Zh | crate::i18n::Lang::ZhHant => "；",
        crate::i18n::Lang::En => "; ",
    }
}

/// What a swipe on the tour's sheet does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swipe {
    /// Right to left: the next step.
    Next,
    /// Left to right: the previous step.
    Previous,
    /// Downwards: fold the sheet to one line.
    Fold,
    /// Upwards: unfold it.
    Unfold,
}

/// Reads a finger's move from `(x0, y0)` to `(x1, y1)` (CSS px) as a swipe: at
/// least 40 px, and mostly along one axis (a diagonal drag is nothing).
pub fn swipe(from: (f64, f64), to: (f64, f64)) -> Option<Swipe> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    const MIN: f64 = 40.0;
    if dx.abs() >= MIN && dx.abs() > 1.5 * dy.abs() {
        Some(if dx < 0.0 {
            Swipe::Next
        } else {
            Swipe::Previous
        })
    } else if dy.abs() >= MIN && dy.abs() > 1.5 * dx.abs() {
        Some(if dy > 0.0 { Swipe::Fold } else { Swipe::Unfold })
    } else {
        None
    }
}

/// The sheet's swipes: where a finger went down, and what its lift means.
fn swipe_handlers(
    l: &Lessons,
    step: usize,
    n: usize,
    folded: &UseStateHandle<bool>,
    start: &Rc<std::cell::RefCell<Option<(f64, f64)>>>,
) -> (Callback<PointerEvent>, Callback<PointerEvent>) {
    let down = {
        let start = start.clone();
        Callback::from(move |e: PointerEvent| {
            *start.borrow_mut() = (e.pointer_type() == "touch")
                .then(|| (f64::from(e.client_x()), f64::from(e.client_y())));
        })
    };
    let up = {
        let (go, folded, start) = (l.go.clone(), folded.clone(), start.clone());
        Callback::from(move |e: PointerEvent| {
            let Some(from) = start.borrow_mut().take() else {
                return;
            };
            match swipe(from, (f64::from(e.client_x()), f64::from(e.client_y()))) {
                Some(Swipe::Next) if step + 1 < n => go.emit(step + 1),
                Some(Swipe::Previous) if step > 0 => go.emit(step - 1),
                Some(Swipe::Fold) => folded.set(true),
                Some(Swipe::Unfold) => folded.set(false),
                _ => {}
            }
        })
    };
    (down, up)
}

/// The button that makes the change the step asks for, or (once made) what the
/// step says then.
fn invite_view(l: &Lessons, s: &tour::Step, revealed: bool, lang: crate::i18n::Lang) -> Html {
    let Some(inv) = &s.invites else {
        return html! {};
    };
    if l.invite_met {
        return match &inv.then {
            Some(then) => html! {
                <p class="tour-card__then" id="tour-then">{ tour::text(then, lang).to_string() }</p>
            },
            None => html! {},
        };
    }
    // A question first: the change would give its answer away.
    if s.ask.is_some() && !revealed {
        return html! {};
    }
    let label = match (&inv.mode, &inv.lesson) {
        (Some(m), _) => {
            let mode = crate::playback::Mode::from_key(m)
                .map_or(m.as_str(), |m| crate::labels::mode(lang, m));
            t("tour_invite_mode", lang).replace("{mode}", mode)
        }
        (_, Some(name)) => t("tour_invite_lesson", lang).replace("{name}", name),
        _ => return html! {},
    };
    html! {
        <button type="button" class="text-button tour-card__invite" id="tour-invite"
                onclick={l.follow.reform(|_: MouseEvent| ())}>{ label }</button>
    }
}

/// After a step's seek has been drawn (and whenever the sheet folds or
/// unfolds): the panel row the step talks about is scrolled into view in its
/// panel, and on a phone the row (else the highlighted element) is brought
/// above the sheet.
#[hook]
fn use_evidence_in_view(l: &Lessons, card_ref: &NodeRef, folded: bool) {
    let card_ref = card_ref.clone();
    let (target, row) = (l.target.clone(), l.row.clone());
    let key = (
        l.showing.map(|s| s.step),
        folded,
        target.clone(),
        row.clone(),
    );
    use_effect_with(key, move |_| {
        let found = row.as_deref().and_then(|sel| {
            web_sys::window()?
                .document()?
                .query_selector(sel)
                .ok()
                .flatten()
        });
        if let Some(el) = found {
            reveal_in_scroller(&el);
        }
        if let (Some(sel), Some(card), true) = (
            row.or(target),
            card_ref.cast::<web_sys::Element>(),
            touch::phone_layout(),
        ) {
            touch::keep_above_sheet(&sel, &card);
        }
    });
}

/// The current tour step: its text, the question and its answer, previous /
/// next; in the side panel, beside the graph it talks about. On a phone it is a
/// sheet at the bottom of the screen (the stylesheet's phone block): previous /
/// next at its foot in thumb reach, foldable to that one line by its ⌄ button
/// or a swipe down, and the page scrolled so that the step's highlighted
/// element stays in view above it.
#[component]
pub fn TourCard(props: &LessonProps) -> Html {
    let lang = use_lang().lang;
    let touch = touch::use_touch();
    let l = &props.lessons;
    // The answer, once shown, is brought into view with its question; a new step
    // starts with the card scrolled to its top, so its text is read from the start.
    let answer_ref = use_node_ref();
    let card_ref = use_node_ref();
    let folded = use_state_eq(|| false);
    // The choice picked at a step, as (step, choice): another step starts unpicked.
    let picked = use_state_eq(|| None::<(usize, usize)>);
    let swipe_start = use_mut_ref(|| None::<(f64, f64)>);
    {
        let answer_ref = answer_ref.clone();
        let shown = l.showing.is_some_and(|s| s.revealed);
        use_effect_with(shown, move |shown| {
            if *shown {
                if let Some(ask) = answer_ref
                    .cast::<web_sys::Element>()
                    .and_then(|a| a.parent_element())
                {
                    reveal_in_scroller(&ask);
                }
            }
        });
    }
    {
        let card_ref = card_ref.clone();
        let step = l.showing.map(|s| s.step);
        let folded = folded.setter();
        use_effect_with(step, move |_| {
            folded.set(false);
            if let Some(card) = card_ref.cast::<web_sys::Element>() {
                card.set_scroll_top(0);
                reveal_in_scroller(&card);
            }
        });
    }
    use_evidence_in_view(l, &card_ref, *folded);
    let (Some(tour), Some(Showing { step, revealed })) = (&*l.tour, l.showing) else {
        return html! {};
    };
    let Some(s) = tour.steps.get(step) else {
        return html! {};
    };
    let n = tour.steps.len();
    let counter = t("tour_step_of", lang)
        .replace("{n}", &(step + 1).to_string())
        .replace("{total}", &n.to_string());
    let nav = |to: usize| l.go.reform(move |_: MouseEvent| to);
    let text = |loc: &engine::scenario::Localized| tour::text(loc, lang).to_string();
    // Why this step's moment is not in this run (another mode can lack one).
    let unreachable = match &*l.positions {
        Some(each) => each.get(step).and_then(|p| p.as_ref().err()).cloned(),
        None => None,
    };
    let (on_down, on_up) = swipe_handlers(l, step, n, &folded, &swipe_start);
    let fold_label = if *folded {
        t("tour_sheet_unfold", lang)
    } else {
        t("tour_sheet_fold", lang)
    };
    let toggle_fold = {
        let folded = folded.clone();
        Callback::from(move |_: MouseEvent| folded.set(!*folded))
    };
    html! {
        <div class={classes!("tour-card", folded.then_some("tour-card--folded"))} role="region"
             aria-label={t("tour_label", lang)} lang={lang.html_lang()} ref={card_ref}
             onpointerdown={on_down} onpointerup={on_up}>
            <div class="tour-card__head">
                <strong class="tour-card__title">{ text(&tour.title) }</strong>
                // Leaving is rare: a small ✕ in the corner, so previous / next keep
                // one row and the step's question stays in view.
                <button type="button" class="icon-button tour-card__exit" id="tour-exit"
                        aria-label={t("tour_exit", lang)} title={t("tour_exit", lang)}
                        onclick={l.exit.reform(|_: MouseEvent| ())}>{ "✕" }</button>
            </div>
            <div class="tour-card__nav">
                <button type="button" class="icon-button tour-card__fold" id="tour-fold"
                        aria-expanded={(!*folded).to_string()} aria-label={fold_label} title={fold_label}
                        onclick={toggle_fold}>{ if *folded { "⌃" } else { "⌄" } }</button>
                <button type="button" class="text-button" id="tour-prev" disabled={step == 0}
                        onclick={nav(step.saturating_sub(1))}>{ "← " }{ t("tour_prev", lang) }</button>
                <button type="button" class="text-button text-button--primary" id="tour-next" disabled={step + 1 >= n}
                        onclick={nav(step + 1)}>{ t("tour_next", lang) }{ " →" }</button>
                <span class="tour-card__counter" id="tour-counter" aria-live="polite">{ counter }</span>
            </div>
            <p class="tour-card__text" id="tour-text">{ breakable(&text(&s.text)) }</p>
            { invite_view(l, s, revealed, lang) }
            if let Some(c) = &s.notes {
                <NotesBlock callout={c.clone()} />
            }
            <SourcesLine sources={s.sources.clone()} />
            if let Some(e) = unreachable {
                <p class="lesson-bar__error" role="alert">{ t("tour_unreachable", lang) }{ " " }{ e }</p>
            }
            { ask_view(l, s, Pick { step, picked: &picked, revealed }, &answer_ref, lang) }
            <p class="tour-card__keys" id="tour-keys">{ t(if touch { "tour_keys_touch" } else { "tour_keys" }, lang) }</p>
        </div>
    }
}

/// Where a step's question stands: the step, the choice picked (any step's) and
/// whether the answer is shown.
struct Pick<'a> {
    step: usize,
    picked: &'a UseStateHandle<Option<(usize, usize)>>,
    revealed: bool,
}

/// The letter a choice is called by (A, B, C, D), here and in a class's vote.
pub(crate) fn letter(i: usize) -> char {
    (b'A' + (i as u8).min(25)) as char
}

/// A step's choices as buttons: one picked is pressed and reveals the answer;
/// once revealed, the right one and a wrong pick say so in words and a mark,
/// not by colour alone. Answered, they are `aria-disabled` rather than
/// `disabled`, so the keyboard's focus stays on the pick that was made.
fn choices_view(l: &Lessons, s: &tour::Step, pick: &Pick, lang: crate::i18n::Lang) -> Html {
    let right = s.right_choice();
    let picked = pick
        .picked
        .filter(|(at, _)| *at == pick.step)
        .map(|(_, c)| c);
    html! {
        <div class="tour-card__choices" id="tour-choices" role="group"
             aria-label={t("tour_choices_label", lang)}>
            { for s.choice_texts(lang).into_iter().enumerate().map(|(i, text)| {
                let is_right = Some(i) == right;
                let mine = picked == Some(i);
                let mark = match (pick.revealed, is_right, mine) {
                    (true, true, _) => Some(("tour-card__choice--right", t("tour_choice_right", lang))),
                    (true, false, true) => Some(("tour-card__choice--wrong", t("tour_choice_wrong", lang))),
                    _ => None,
                };
                let onclick = {
                    let (set, reveal, step) = (pick.picked.clone(), l.reveal.clone(), pick.step);
                    let answered = pick.revealed;
                    Callback::from(move |_: MouseEvent| {
                        if !answered {
                            set.set(Some((step, i)));
                            reveal.emit(());
                        }
                    })
                };
                html! {
                    <button type="button" id={format!("tour-choice-{}", i + 1)}
                            class={classes!("tour-card__choice", mark.as_ref().map(|m| m.0))}
                            aria-pressed={mine.to_string()}
                            aria-disabled={pick.revealed.then_some("true")}
                            data-right={(pick.revealed && is_right).then_some("true")}
                            {onclick}>
                        <span class="tour-card__choice-letter" aria-hidden="true">{ letter(i) }</span>
                        <span class="tour-card__choice-text">{ text.to_string() }</span>
                        if let Some((_, words)) = mark {
                            <span class="tour-card__choice-mark">{ words }</span>
                        }
                    </button>
                }
            }) }
        </div>
    }
}

/// Whether the pick was right, in words, once the answer is shown (nothing
/// without a pick).
fn verdict_view(s: &tour::Step, pick: &Pick, lang: crate::i18n::Lang) -> Html {
    let right = s.right_choice();
    let picked = pick
        .picked
        .filter(|(at, _)| *at == pick.step)
        .map(|(_, c)| c);
    match (pick.revealed, picked) {
        (true, Some(p)) if Some(p) == right => html! {
            <p class="tour-card__verdict tour-card__verdict--right" id="tour-verdict" role="status">
                { t("tour_verdict_right", lang) }</p>
        },
        (true, Some(_)) => html! {
            <p class="tour-card__verdict tour-card__verdict--wrong" id="tour-verdict" role="status">
                { t("tour_verdict_wrong", lang).replace("{letter}", &right.map(letter).unwrap_or('?').to_string()) }</p>
        },
        _ => html! {},
    }
}

/// A step's question, its choices and, once revealed, its answer (nothing for a
/// step without one).
fn ask_view(
    l: &Lessons,
    s: &tour::Step,
    pick: Pick,
    answer_ref: &NodeRef,
    lang: crate::i18n::Lang,
) -> Html {
    let (Some(q), Some(a)) = (&s.ask, &s.answer) else {
        return html! {};
    };
    let revealed = pick.revealed;
    let text = |loc: &engine::scenario::Localized| tour::text(loc, lang).to_string();
    html! {
        <>
        // The question and its choices follow the step's text; the button that
        // reveals the answer stays in view at the drawer's bottom while they
        // scroll; once answered, the verdict and the answer take its place
        // and are scrolled into view.
        <div class="tour-card__question">
            <p><strong>{ t("tour_predict", lang) }</strong>{ " " }{ breakable(&text(q)) }</p>
            { choices_view(l, s, &pick, lang) }
        </div>
        <div class={classes!("tour-card__ask", revealed.then_some("tour-card__ask--answered"))}>
            if revealed {
                { verdict_view(s, &pick, lang) }
                <p class="tour-card__answer" id="tour-answer" ref={answer_ref.clone()}>{ breakable(&text(a)) }</p>
            } else {
                <button type="button" class="text-button" id="tour-reveal"
                        onclick={l.reveal.reform(|_: MouseEvent| ())}>{ t("tour_reveal", lang) }</button>
            }
        </div>
        </>
    }
}

/// The zh/en glossary: each term in both languages, explained in the current one.
#[component]
pub fn Glossary() -> Html {
    let lang = use_lang().lang;
    let terms = use_terms();
    // Opened from the ⋯ sheet on a phone, it would start far below the screen.
    use_effect_with((), |_| {
        crate::document::bring_on_screen_when_narrow("glossary")
    });
    // The Chinese name beside the English one: in the reader's script when that
    // is Traditional.
    let chinese = if lang == crate::i18n::Lang::ZhHant {
        crate::i18n::Lang::ZhHant
    } else {
        crate::i18n::Lang::Zh
    };
    html! {
        <div class="glossary" id="glossary" role="region" aria-label={t("glossary_heading", lang)}>
            <h2 class="glossary__heading">{ t("glossary_heading", lang) }</h2>
            <dl class="glossary__list">
                { for terms.iter().map(|term| html! {
                    <div class="glossary__entry">
                        <dt><span lang={chinese.html_lang()}>{ chinese.loc(&term.term).to_string() }</span>{ " · " }<span lang="en">{ term.term.en.clone() }</span></dt>
                        <dd>
                            { tour::text(&term.explain, lang).to_string() }
                            if let Some(c) = &term.notes {
                                <NotesBlock callout={c.clone()} />
                            }
                            <SourcesLine sources={term.sources.clone()} />
                        </dd>
                    </div>
                }) }
            </dl>
        </div>
    }
}

/// Props of [`NotesBlock`].
#[derive(Properties, PartialEq)]
pub struct NotesBlockProps {
    /// The callout to show.
    pub callout: NotesCallout,
}

/// "笔记说…… — Flink 实际……" / "The notes say … — Flink does …": the notes' claim,
/// what Flink does, and the version or class that decides it, as one block.
#[component]
pub fn NotesBlock(props: &NotesBlockProps) -> Html {
    let lang = use_lang().lang;
    let c = &props.callout;
    html! {
        <aside class="notes-callout" aria-label={t("notes_label", lang)}>
            <p class="notes-callout__claim">
                <strong>{ t("notes_say", lang) }</strong>{ " " }{ tour::text(&c.claim, lang).to_string() }
            </p>
            <p class="notes-callout__flink">
                <strong>{ t("notes_flink_does", lang) }</strong>{ " " }{ tour::text(&c.flink, lang).to_string() }
                { " " }<span class="notes-callout__source">{ "(" }{ c.decided_by.clone() }{ ")" }</span>
            </p>
        </aside>
    }
}

/// The glossary for a view: at once when it is here, otherwise fetched (the view
/// redraws when it arrives; a failure is logged with the file's name and the
/// list stays empty).
#[hook]
pub fn use_terms() -> Rc<Vec<glossary::Term>> {
    let terms = use_state(|| Rc::new(glossary::terms()));
    {
        let terms = terms.clone();
        use_effect_with((), move |_| {
            if !glossary::GLOSSARY.available() {
                wasm_bindgen_futures::spawn_local(async move {
                    match crate::data::ensure(vec![glossary::GLOSSARY.file().to_string()]).await {
                        Ok(()) => terms.set(Rc::new(glossary::terms())),
                        Err(e) => {
                            web_sys::console::warn_1(&crate::data::failure(&e).into());
                        }
                    }
                });
            }
        });
    }
    (*terms).clone()
}
