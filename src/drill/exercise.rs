//! One exercise of the drill: a fresh variant of a lesson drawn from a random
//! variant seed, the question with the variant's parameters, a blank per thing
//! asked (a number typed, or values tapped from the choices), and the check
//! against the engine's run of that variant — then the moment that shows why,
//! played on the stage.

use std::collections::BTreeSet;
use std::rc::Rc;

use engine::drill::{self, Answer, Blank, Exercise, Kind, Marked};
use yew::prelude::*;

use super::pick::{PickSlot, StagePick};
use super::{w, wf};
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::playback::Action;

/// Simulated time played before an exercise's moment, so the class sees it come.
pub const LEAD_MS: u64 = 150;

/// Properties of [`ExerciseCard`].
#[derive(Properties, PartialEq)]
pub struct ExerciseCardProps {
    /// What is asked.
    pub kind: Kind,
    /// Playback actions (the variant is played on the stage).
    pub dispatch: Callback<Action>,
    /// Told whether an answer was all right, each time one is checked.
    pub on_mark: Callback<bool>,
}

/// A variant seed for a new exercise: random, so that neighbours in a class get
/// different variants (the seed is shown, so a teacher can name one).
fn fresh_variant() -> u64 {
    (js_sys::Math::random() * 1_000_000.0) as u64
}

/// The exercise of `kind` on variant `variant`, once its lesson's scenario is here.
fn make(kind: Kind, variant: u64) -> Result<Rc<Exercise>, String> {
    let base = engine::runner::load(kind.lesson()).map_err(|e| e.to_string())?;
    drill::generate(kind, &base, variant)
        .map(Rc::new)
        .map_err(|e| e.to_string())
}

/// Loads the variant on the stage a little before its moment and plays.
pub fn play_variant(dispatch: &Callback<Action>, ex: &Exercise) {
    load_variant_at(dispatch, ex, ex.moment_ms.saturating_sub(LEAD_MS));
    dispatch.emit(Action::TogglePlay);
}

/// Loads the variant on the stage, paused at `at_ms`.
fn load_variant_at(dispatch: &Callback<Action>, ex: &Exercise, at_ms: u64) {
    let json = serde_json::to_string(&ex.scenario).expect("a scenario serializes");
    dispatch.emit(Action::LoadScenario(json));
    dispatch.emit(Action::SeekTime(at_ms));
}

/// Takes the stage's pick back if this card armed it: its records stop being
/// choices (the card checked, drew another variant, or is gone).
fn disarm(slot: &Option<PickSlot>, armed: bool) {
    if let (true, Some(slot)) = (armed, slot) {
        slot.set(None);
    }
}

/// What the learner has entered for one blank.
#[derive(Clone, Debug, Default, PartialEq)]
struct Entry {
    typed: String,
    chosen: BTreeSet<i64>,
}

/// What the learner has entered, blank by blank. A reducer, because the stage
/// edits it too (a record tapped there), from a callback made renders ago.
#[derive(Clone, Debug, Default, PartialEq)]
struct Entries(Vec<Entry>);

/// An edit of [`Entries`].
enum Edit {
    /// A new variant: `n` empty blanks.
    Reset(usize),
    /// Blank `i` now reads this text.
    Type(usize, String),
    /// Value `v` chosen in blank `i`, or unchosen if it was.
    Toggle(usize, i64),
}

impl Reducible for Entries {
    type Action = Edit;

    fn reduce(self: Rc<Self>, edit: Edit) -> Rc<Self> {
        let mut next = (*self).clone();
        match edit {
            Edit::Reset(n) => next.0 = vec![Entry::default(); n],
            Edit::Type(i, text) => {
                if let Some(slot) = next.0.get_mut(i) {
                    slot.typed = text;
                }
            }
            Edit::Toggle(i, v) => {
                if let Some(slot) = next.0.get_mut(i) {
                    if !slot.chosen.remove(&v) {
                        slot.chosen.insert(v);
                    }
                }
            }
        }
        Rc::new(next)
    }
}

/// The learner's answer to `b`, or the message saying why it cannot be read.
fn answer_of(b: &Blank, e: &Entry, lang: Lang) -> Result<Answer, String> {
    if !b.choices.is_empty() {
        return Ok(Answer::Set(e.chosen.clone()));
    }
    drill::parse(b, &e.typed).map_err(|_| {
        wf(
            "unreadable",
            lang,
            &[("blank", &blank_label(&b.name, lang)), ("text", &e.typed)],
        )
    })
}

fn blank_label(name: &str, lang: Lang) -> String {
    w(&format!("b_{name}"), lang)
}

fn shown(a: &Answer, lang: Lang) -> String {
    match a {
        Answer::Set(s) if s.is_empty() => w("empty_set", lang),
        other => other.to_string(),
    }
}

/// The question with the variant's parameters filled in.
fn question_text(ex: &Exercise, lang: Lang) -> String {
    let values: Vec<(String, String)> = ex
        .params
        .iter()
        .chain(ex.question.iter())
        .map(|(k, v)| (k.clone(), v.to_string()))
        .chain([("lesson".to_string(), ex.kind.lesson().to_string())])
        .collect();
    let args: Vec<(&str, &str)> = values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    wf(&format!("q_{}", ex.kind.key()), lang, &args)
}

/// The variant's parameters in words.
fn params_text(ex: &Exercise, lang: Lang) -> String {
    ex.params
        .iter()
        .map(|(k, v)| wf(&format!("p_{k}"), lang, &[("v", &v.to_string())]))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// One exercise; see the module documentation.
#[component]
pub fn ExerciseCard(props: &ExerciseCardProps) -> Html {
    let lang = use_lang().lang;
    let kind = props.kind;
    let variant = use_state_eq(fresh_variant);
    let made = use_state(|| None::<Result<Rc<Exercise>, String>>);
    let entries = use_reducer_eq(Entries::default);
    let result = use_state(|| None::<Result<Vec<Marked>, String>>);
    // The stage's pick, when this card armed it (see `super::pick`).
    let slot = use_context::<PickSlot>();
    let armed = slot
        .as_ref()
        .and_then(|s| s.as_ref())
        .is_some_and(|p| p.owner == kind.key());
    {
        // Gone or disarmed: the stage's records stop being choices.
        let slot = slot.clone();
        use_effect_with(armed, move |armed| {
            let armed = *armed;
            move || disarm(&slot, armed)
        });
    }
    {
        let (made, entries, result) = (made.clone(), entries.dispatcher(), result.clone());
        use_effect_with(*variant, move |v| {
            let v = *v;
            result.set(None);
            let files = crate::data::lesson_files(kind.lesson());
            let waiting = made.clone();
            let finish = move |ok: Result<(), String>| {
                let ex = ok.and_then(|_| make(kind, v));
                if let Ok(ex) = &ex {
                    entries.dispatch(Edit::Reset(ex.blanks.len()));
                }
                made.set(Some(ex));
            };
            if files.iter().all(|f| crate::data::available(f)) {
                finish(Ok(()));
            } else {
                waiting.set(None);
                wasm_bindgen_futures::spawn_local(async move {
                    finish(crate::data::ensure(files).await);
                });
            }
        });
    }
    // The blank a tap on the stage edits, and the chosen values the stage
    // shows pressed (kept in step with the chips).
    let pick_blank = made.as_ref().and_then(|m| m.as_ref().ok()).and_then(|ex| {
        ex.ask_ms
            .and(ex.blanks.iter().position(|b| !b.choices.is_empty()))
    });
    {
        let slot = slot.clone();
        let chosen = pick_blank.and_then(|i| entries.0.get(i).map(|e| e.chosen.clone()));
        use_effect_with((armed, chosen), move |(armed, chosen)| {
            let (Some(slot), true, Some(chosen)) = (slot, *armed, chosen) else {
                return;
            };
            if let Some(p) = (*slot).clone().filter(|p| *p.chosen != *chosen) {
                slot.set(Some(StagePick {
                    chosen: Rc::new(chosen.clone()),
                    ..p
                }));
            }
        });
    }
    let Some(made_now) = (*made).clone() else {
        return html! {
            <section class="drill-ex" data-kind={kind.key()} aria-busy="true">
                <p class="drill-ex__params">{ w("preparing", lang) }</p>
            </section>
        };
    };
    let ex = match made_now {
        Ok(ex) => ex,
        Err(e) => {
            return html! {
                <section class="drill-ex" data-kind={kind.key()}>
                    <p class="drill-ex__error" role="alert">{ e }</p>
                </section>
            }
        }
    };
    let on_check = {
        let (ex, entries, result) = (ex.clone(), entries.clone(), result.clone());
        let (dispatch, on_mark, slot) =
            (props.dispatch.clone(), props.on_mark.clone(), slot.clone());
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let given: Result<Vec<Answer>, String> = ex
                .blanks
                .iter()
                .zip(entries.0.iter())
                .map(|(b, e)| answer_of(b, e, lang))
                .collect();
            let marked = given.and_then(|g| drill::check(&ex, &g).map_err(|e| e.to_string()));
            if let Ok(m) = &marked {
                disarm(&slot, armed);
                on_mark.emit(m.iter().all(|m| m.right));
                play_variant(&dispatch, &ex);
            }
            result.set(Some(marked));
        })
    };
    let another = {
        let (variant, slot) = (variant.clone(), slot.clone());
        Callback::from(move |_: MouseEvent| {
            disarm(&slot, armed);
            variant.set(fresh_variant())
        })
    };
    let on_stage = pick_blank.zip(ex.ask_ms).map(|(i, at_ms)| {
        let (ex, dispatch, slot) = (ex.clone(), props.dispatch.clone(), slot.clone());
        let edit = entries.dispatcher();
        let chosen = entries.0.get(i).map(|e| e.chosen.clone()).unwrap_or_default();
        let result = result.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            load_variant_at(&dispatch, &ex, at_ms);
            // A new attempt: the last verdict no longer describes the choices.
            result.set(None);
            crate::document::bring_stage_on_screen();
            let edit = edit.clone();
            if let Some(slot) = &slot {
                slot.set(Some(StagePick {
                    owner: kind.key(),
                    scenario: ex.scenario.name.clone(),
                    choices: Rc::new(ex.blanks[i].choices.clone()),
                    chosen: Rc::new(chosen.clone()),
                    on_pick: Callback::from(move |v| edit.dispatch(Edit::Toggle(i, v))),
                }));
            }
        });
        html! {
            <div class="drill-ex__on-stage">
                <button type="button" class="text-button drill-ex__pick" aria-pressed={armed.to_string()} {onclick}>
                    { w("pick_on_stage", lang) }
                </button>
                if armed {
                    <p class="drill-ex__pick-hint" role="status">{ w("pick_hint", lang) }</p>
                }
            </div>
        }
    });
    let replay = {
        let (ex, dispatch) = (ex.clone(), props.dispatch.clone());
        Callback::from(move |_: MouseEvent| play_variant(&dispatch, &ex))
    };
    let form_id = format!("drill-ex-{}", kind.key());
    html! {
        <section class="drill-ex" data-kind={kind.key()} data-variant={variant.to_string()}>
            <p class="drill-ex__question">{ question_text(&ex, lang) }</p>
            <p class="drill-ex__params">
                { wf("variant", lang, &[("v", &variant.to_string()), ("params", &params_text(&ex, lang))]) }
            </p>
            <form class="drill-ex__form" id={form_id} onsubmit={on_check}>
                { for ex.blanks.iter().enumerate().map(|(i, b)| blank_view(i, b, &entries, lang)) }
                { on_stage.unwrap_or_default() }
                <div class="drill-ex__actions">
                    <button type="submit" class="text-button text-button--primary drill-ex__check">{ w("check", lang) }</button>
                    <button type="button" class="text-button drill-ex__another" onclick={another}>{ w("new_variant", lang) }</button>
                </div>
            </form>
            { result_view(&result, lang, replay) }
        </section>
    }
}

/// One blank: a text field, or the choices as toggle buttons.
fn blank_view(i: usize, b: &Blank, entries: &UseReducerHandle<Entries>, lang: Lang) -> Html {
    let label = blank_label(&b.name, lang);
    let entry = entries.0.get(i).cloned().unwrap_or_default();
    if b.choices.is_empty() {
        let oninput = {
            let edit = entries.dispatcher();
            Callback::from(move |e: InputEvent| {
                let value = e
                    .target_dyn_into::<web_sys::HtmlInputElement>()
                    .map(|i| i.value())
                    .unwrap_or_default();
                edit.dispatch(Edit::Type(i, value));
            })
        };
        return html! {
            <label class="drill-ex__blank">
                <span class="drill-ex__label">{ label }</span>
                <input type="text" inputmode="numeric" autocomplete="off" class="drill-ex__input"
                       data-blank={b.name.clone()} value={entry.typed} {oninput} />
            </label>
        };
    }
    let chips = b.choices.iter().map(|&v| {
        let pressed = entry.chosen.contains(&v);
        let onclick = {
            let edit = entries.dispatcher();
            Callback::from(move |_: MouseEvent| edit.dispatch(Edit::Toggle(i, v)))
        };
        let text = if b.name == "committed" {
            wf("txn", lang, &[("v", &v.to_string())])
        } else {
            v.to_string()
        };
        html! {
            <button type="button" class="drill-chip" data-value={v.to_string()}
                    aria-pressed={pressed.to_string()} {onclick}>{ text }</button>
        }
    });
    html! {
        <fieldset class="drill-ex__blank drill-ex__blank--choices" data-blank={b.name.clone()}>
            <legend class="drill-ex__label">{ label }<span class="drill-ex__hint">{ format!(" · {}", w("choose_hint", lang)) }</span></legend>
            <div class="drill-chips">{ for chips }</div>
        </fieldset>
    }
}

/// The check's outcome: a line per blank, then the moment's replay.
fn result_view(
    result: &Option<Result<Vec<Marked>, String>>,
    lang: Lang,
    replay: Callback<MouseEvent>,
) -> Html {
    let Some(result) = result else {
        return html! { <div class="drill-ex__result" role="status" aria-live="polite"></div> };
    };
    let marked = match result {
        Ok(m) => m,
        Err(e) => {
            return html! {
                <div class="drill-ex__result drill-ex__result--error" role="status" aria-live="polite">
                    <p>{ e }</p>
                </div>
            }
        }
    };
    let all_right = marked.iter().all(|m| m.right);
    let lines = marked.iter().map(|m| {
        let label = blank_label(&m.blank, lang);
        let (given, expected) = (shown(&m.given, lang), shown(&m.expected, lang));
        let text = if m.right {
            wf("right", lang, &[("blank", &label), ("given", &given)])
        } else {
            wf(
                "wrong",
                lang,
                &[("blank", &label), ("given", &given), ("expected", &expected)],
            )
        };
        html! { <li class={classes!("drill-ex__line", if m.right { "is-right" } else { "is-wrong" })}>{ text }</li> }
    });
    html! {
        <div class={classes!("drill-ex__result", if all_right { "drill-ex__result--right" } else { "drill-ex__result--wrong" })}
             data-right={all_right.to_string()} role="status" aria-live="polite">
            <p class="drill-ex__verdict">{ w(if all_right { "all_right" } else { "some_wrong" }, lang) }</p>
            <ul class="drill-ex__lines">{ for lines }</ul>
            <button type="button" class="text-button drill-ex__replay" onclick={replay}>{ w("replay", lang) }</button>
        </div>
    }
}
