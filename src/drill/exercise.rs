//! One exercise of the drill: a fresh variant of a lesson drawn from a random
//! variant seed, the question with the variant's parameters, a blank per thing
//! asked, drawn by its answer's form (a number typed, values or labels tapped
//! from the blank's chips), and the check against the engine's run of that
//! variant: a wrong answer says why in one line (the blank's reason, worded
//! from `why.<key>`), and the stage shows the variant paused at the moment
//! that shows it.

use std::collections::BTreeSet;
use std::rc::Rc;

use engine::drill::{self, Answer, Blank, Exercise, Kind, Marked};
use yew::prelude::*;

use super::lesson::lesson_name;
use super::pick::{PickSlot, StagePick};
use super::{breakable, label_text, w, wf, why_text};
use crate::hooks::use_lang;
use crate::i18n::Lang;
use crate::playback::Action;

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
pub(super) fn make(kind: Kind, variant: u64) -> Result<Rc<Exercise>, String> {
    let base = engine::runner::load(kind.lesson()).map_err(|e| e.to_string())?;
    drill::generate(kind, &base, variant)
        .map(Rc::new)
        .map_err(|e| e.to_string())
}

/// The moment that shows why the answers are what they are: the reason of the
/// first wrongly answered blank that has one, else of the first blank that has
/// one, else the exercise's moment.
pub fn reason_moment(ex: &Exercise, marked: Option<&[Marked]>) -> u64 {
    let wrong =
        |b: &&Blank| marked.is_some_and(|m| m.iter().any(|m| m.blank == b.name && !m.right));
    let with_why = || ex.blanks.iter().filter(|b| b.why.is_some());
    with_why()
        .find(wrong)
        .or_else(|| with_why().next())
        .and_then(|b| b.why.as_ref())
        .map_or(ex.moment_ms, |why| why.at_ms)
}

/// The actions that put the variant on the stage paused at `at_ms`: loaded,
/// sought, and paused (a run that was playing does not go on past it).
pub fn variant_at(ex: &Exercise, at_ms: u64) -> [Action; 3] {
    let json = serde_json::to_string(&ex.scenario).expect("a scenario serializes");
    [
        Action::LoadScenario(json),
        Action::SeekTime(at_ms),
        Action::Pause,
    ]
}

/// Loads the variant on the stage, paused at `at_ms`.
fn load_variant_at(dispatch: &Callback<Action>, ex: &Exercise, at_ms: u64) {
    for a in variant_at(ex, at_ms) {
        dispatch.emit(a);
    }
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
pub(super) struct Entry {
    typed: String,
    chosen: BTreeSet<i64>,
    labels: BTreeSet<String>,
}

/// What the learner has entered, blank by blank. A reducer, because the stage
/// edits it too (a record tapped there), from a callback made renders ago.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Entries(pub(super) Vec<Entry>);

/// An edit of [`Entries`].
pub(super) enum Edit {
    /// Blank `i` now reads this text.
    Type(usize, String),
    /// Value `v` chosen in blank `i`, or unchosen if it was.
    Toggle(usize, i64),
    /// Label `l` chosen in blank `i`, or unchosen if it was.
    ToggleLabel(usize, String),
}

impl Reducible for Entries {
    type Action = Edit;

    fn reduce(self: Rc<Self>, edit: Edit) -> Rc<Self> {
        let mut next = (*self).clone();
        match edit {
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
            Edit::ToggleLabel(i, l) => {
                if let Some(slot) = next.0.get_mut(i) {
                    if !slot.labels.remove(&l) {
                        slot.labels.insert(l);
                    }
                }
            }
        }
        Rc::new(next)
    }
}

/// The learner's answer to `b`, or the message saying why it cannot be read.
pub(super) fn answer_of(b: &Blank, e: &Entry, lang: Lang) -> Result<Answer, String> {
    match Form::of(b) {
        Form::Values => return Ok(Answer::Set(e.chosen.clone())),
        Form::Labels => return Ok(Answer::Labels(e.labels.clone())),
        Form::Typed => {}
    }
    drill::parse(b, &e.typed).map_err(|_| {
        wf(
            "unreadable",
            lang,
            &[("blank", &blank_label(&b.name, lang)), ("text", &e.typed)],
        )
    })
}

pub(super) fn blank_label(name: &str, lang: Lang) -> String {
    w(&format!("b_{name}"), lang)
}

/// How a blank is answered, from its answer's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Typed: a number (or a set of numbers with nothing to choose from).
    Typed,
    /// Chips of the blank's `choices`.
    Values,
    /// Chips of the blank's `labels`.
    Labels,
}

impl Form {
    /// The form of blank `b`.
    pub fn of(b: &Blank) -> Form {
        match &b.answer {
            Answer::Set(_) if !b.choices.is_empty() => Form::Values,
            Answer::Labels(_) if !b.labels.is_empty() => Form::Labels,
            _ => Form::Typed,
        }
    }
}

/// An answer in words: labels worded ([`label_text`]), nothing as "(none)".
pub fn shown(a: &Answer, lang: Lang) -> String {
    match a {
        Answer::Set(s) if s.is_empty() => w("empty_set", lang),
        Answer::Labels(s) if s.is_empty() => w("empty_set", lang),
        Answer::Labels(s) => s
            .iter()
            .map(|l| label_text(l, lang))
            .collect::<Vec<_>>()
            .join(w("list_sep", lang).as_str()),
        other => other.to_string(),
    }
}

/// The question with the variant's parameters filled in.
pub(super) fn question_text(ex: &Exercise, lang: Lang) -> String {
    let values: Vec<(String, String)> = ex
        .params
        .iter()
        .chain(ex.question.iter())
        .map(|(k, v)| (k.clone(), v.to_string()))
        .chain([("lesson".to_string(), lesson_name(ex.kind.lesson(), lang))])
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

/// One exercise; see the module documentation. Draws the variant and runs it;
/// the answering is [`ExerciseBody`]'s, made anew for each variant.
#[component]
pub fn ExerciseCard(props: &ExerciseCardProps) -> Html {
    let lang = use_lang().lang;
    let kind = props.kind;
    let variant = use_state_eq(fresh_variant);
    let made = use_state(|| None::<Result<Rc<Exercise>, String>>);
    {
        let made = made.clone();
        use_effect_with(*variant, move |v| {
            let v = *v;
            let files = crate::data::lesson_files(kind.lesson());
            let waiting = made.clone();
            let finish =
                move |ok: Result<(), String>| made.set(Some(ok.and_then(|_| make(kind, v))));
            if files.iter().all(|f| crate::data::available(f)) {
                finish(Ok(()));
            } else {
                waiting.set(None);
                wasm_bindgen_futures::spawn_local(async move {
                    finish(crate::data::ensure(files).await.map_err(|e| e.to_string()));
                });
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
    match made_now {
        Ok(ex) => {
            let on_another = {
                let variant = variant.clone();
                Callback::from(move |()| variant.set(fresh_variant()))
            };
            html! {
                <ExerciseBody key={*variant} exercise={ex} variant={*variant} dispatch={props.dispatch.clone()}
                              on_mark={props.on_mark.clone()} {on_another} />
            }
        }
        Err(e) => html! {
            <section class="drill-ex" data-kind={kind.key()}>
                <p class="drill-ex__error" role="alert">{ e }</p>
            </section>
        },
    }
}

/// Properties of [`ExerciseBody`].
#[derive(Properties, PartialEq)]
pub struct ExerciseBodyProps {
    /// The exercise, its variant run.
    pub exercise: Rc<Exercise>,
    /// The variant seed it was drawn with (shown, so a teacher can name it).
    pub variant: u64,
    /// Playback actions (the variant is shown on the stage).
    pub dispatch: Callback<Action>,
    /// Told whether an answer was all right, each time one is checked.
    pub on_mark: Callback<bool>,
    /// Asks for another variant.
    pub on_another: Callback<()>,
}

/// An exercise being answered: its question, a field or chips per blank, the
/// check, and the marked answers with their reasons.
#[component]
pub fn ExerciseBody(props: &ExerciseBodyProps) -> Html {
    let lang = use_lang().lang;
    let ex = props.exercise.clone();
    let kind = ex.kind;
    let variant = props.variant;
    let entries = {
        let n = ex.blanks.len();
        use_reducer_eq(move || Entries(vec![Entry::default(); n]))
    };
    let result = use_state(|| None::<Result<Vec<Marked>, String>>);
    // The blank a tap on the stage edits, and the chosen values the stage
    // shows pressed (kept in step with the chips).
    let pick_blank = ex
        .ask_ms
        .and(ex.blanks.iter().position(|b| Form::of(b) == Form::Values));
    let chosen = pick_blank.and_then(|i| entries.0.get(i).map(|e| e.chosen.clone()));
    let (slot, armed) = use_pick(kind.key(), chosen);
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
                load_variant_at(&dispatch, &ex, reason_moment(&ex, Some(m)));
            }
            result.set(Some(marked));
        })
    };
    let another = {
        let (slot, on_another) = (slot.clone(), props.on_another.clone());
        Callback::from(move |_: MouseEvent| {
            disarm(&slot, armed);
            on_another.emit(());
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
        let (ex, dispatch, result) = (ex.clone(), props.dispatch.clone(), result.clone());
        Callback::from(move |_: MouseEvent| {
            let marked = (*result).as_ref().and_then(|r| r.as_ref().ok());
            load_variant_at(
                &dispatch,
                &ex,
                reason_moment(&ex, marked.map(Vec::as_slice)),
            );
            crate::document::bring_stage_on_screen();
        })
    };
    let form_id = format!("drill-ex-{}", kind.key());
    html! {
        <section class="drill-ex" data-kind={kind.key()} data-variant={variant.to_string()}>
            <p class="drill-ex__question">{ breakable(&question_text(&ex, lang)) }</p>
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
            { result_view(&ex, &result, lang, replay) }
            <super::ask::AskTheClass {kind} {variant} />
        </section>
    }
}

/// The stage's pick as the card of `owner` sees it: the slot, and whether this
/// card armed it (see `super::pick`). Keeps the stage in step with the card:
/// once the card is gone or disarmed the stage's records stop being choices,
/// and the values `chosen` on the chips show pressed on the stage.
#[hook]
fn use_pick(owner: &'static str, chosen: Option<BTreeSet<i64>>) -> (Option<PickSlot>, bool) {
    let slot = use_context::<PickSlot>();
    let armed = slot
        .as_ref()
        .and_then(|s| s.as_ref())
        .is_some_and(|p| p.owner == owner);
    {
        let slot = slot.clone();
        use_effect_with(armed, move |armed| {
            let armed = *armed;
            move || disarm(&slot, armed)
        });
    }
    {
        let slot = slot.clone();
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
    (slot, armed)
}

/// One blank, by its answer's form ([`Form`]): a text field, or its choices
/// (values or labels) as toggle buttons.
pub(super) fn blank_view(
    i: usize,
    b: &Blank,
    entries: &UseReducerHandle<Entries>,
    lang: Lang,
) -> Html {
    let label = blank_label(&b.name, lang);
    let entry = entries.0.get(i).cloned().unwrap_or_default();
    let chips: Vec<Html> = match Form::of(b) {
        Form::Typed => {
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
            let numeric = matches!(b.answer, Answer::Number(_) | Answer::Set(_));
            return html! {
                <label class="drill-ex__blank">
                    <span class="drill-ex__label">{ label }</span>
                    <input type="text" inputmode={if numeric { "numeric" } else { "text" }} autocomplete="off" class="drill-ex__input"
                           data-blank={b.name.clone()} value={entry.typed} {oninput} />
                </label>
            };
        }
        Form::Values => b
            .choices
            .iter()
            .map(|&v| {
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
            })
            .collect(),
        Form::Labels => b
            .labels
            .iter()
            .map(|l| {
                let pressed = entry.labels.contains(l);
                let onclick = {
                    let (edit, l) = (entries.dispatcher(), l.clone());
                    Callback::from(move |_: MouseEvent| edit.dispatch(Edit::ToggleLabel(i, l.clone())))
                };
                html! {
                    <button type="button" class="drill-chip drill-chip--label" data-label={l.clone()}
                            aria-pressed={pressed.to_string()} {onclick}>{ breakable(&label_text(l, lang)) }</button>
                }
            })
            .collect(),
    };
    html! {
        <fieldset class="drill-ex__blank drill-ex__blank--choices" data-blank={b.name.clone()}>
            <legend class="drill-ex__label">{ label }<span class="drill-ex__hint">{ format!(" · {}", w("choose_hint", lang)) }</span></legend>
            <div class="drill-chips">{ for chips }</div>
        </fieldset>
    }
}

/// The reason under a wrong answer: the blank's `why` in words, if its kind
/// gives one and the wording file words it (otherwise the marked line, which
/// states the engine's answer, stands alone).
pub fn reason_line(ex: &Exercise, blank: &str, lang: Lang) -> Option<String> {
    ex.blanks
        .iter()
        .find(|b| b.name == blank)
        .and_then(|b| b.why.as_ref())
        .and_then(|why| why_text(why, lang))
}

/// The check's outcome: a line per blank, then the moment's replay.
fn result_view(
    ex: &Exercise,
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
        let why = (!m.right).then(|| reason_line(ex, &m.blank, lang)).flatten();
        html! {
            <li class={classes!("drill-ex__line", if m.right { "is-right" } else { "is-wrong" })} data-blank={m.blank.clone()}
                data-expected={(!m.right).then(|| serde_json::to_string(&m.expected).unwrap_or_default())}>
                <span class="drill-ex__marked">{ breakable(&text) }</span>
                if let Some(why) = why {
                    <span class="drill-ex__why">{ breakable(&why) }</span>
                }
            </li>
        }
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

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use engine::drill::{self, Answer, Kind, Marked, Why};
    use engine::view::JobStatus;

    use super::{reason_moment, shown, variant_at, Form};
    use crate::i18n::Lang;
    use crate::playback::{Action, State};

    fn why(key: &str, at_ms: u64) -> Option<Why> {
        Some(Why {
            key: key.into(),
            args: BTreeMap::new(),
            at_ms,
        })
    }

    fn marked(blank: &str, right: bool) -> Marked {
        Marked {
            blank: blank.into(),
            right,
            given: Answer::Number(0),
            expected: Answer::Number(1),
        }
    }

    /// The stage shows the reason of the blank answered wrong, not another's.
    #[test]
    fn the_replay_goes_to_the_wrong_blanks_reason() {
        let base = engine::runner::load(Kind::RestoredSums.lesson()).unwrap();
        let mut ex = drill::generate(Kind::RestoredSums, &base, 3).unwrap();
        assert!(ex.blanks.len() >= 2);
        for b in ex.blanks.iter_mut() {
            b.why = None;
        }
        assert_eq!(
            reason_moment(&ex, None),
            ex.moment_ms,
            "no reason: the moment"
        );
        let (first, second) = (ex.blanks[0].name.clone(), ex.blanks[1].name.clone());
        ex.blanks[0].why = why("a", 111);
        ex.blanks[1].why = why("b", 222);
        assert_eq!(reason_moment(&ex, None), 111);
        let m = [marked(&first, true), marked(&second, false)];
        assert_eq!(reason_moment(&ex, Some(&m)), 222);
        let m = [marked(&first, false), marked(&second, false)];
        assert_eq!(reason_moment(&ex, Some(&m)), 111);
    }

    /// For every kind, the page's replay puts its variant on the stage paused
    /// exactly at the moment that shows why — a stage that was playing stops
    /// there — and never on a job that has already finished.
    #[test]
    fn the_replay_stops_at_the_reason_paused_on_a_running_job() {
        for kind in Kind::ALL {
            let base = engine::runner::load(kind.lesson()).unwrap();
            for variant in 0..4 {
                let ex = drill::generate(kind, &base, variant).unwrap();
                let at = reason_moment(&ex, None);
                let mut s = State::new(Some("odd-even-sum"), None).apply(Action::TogglePlay);
                assert!(s.is_playing);
                for a in variant_at(&ex, at) {
                    s = s.apply(a);
                }
                // A frame later nothing has moved.
                s = s.apply(Action::Tick(500.0));
                let k = kind.key();
                assert!(s.error.is_none(), "{k}: {:?}", s.error);
                assert_eq!(
                    s.scenario, ex.scenario.name,
                    "{k}: the variant is on the stage"
                );
                assert!(!s.is_playing, "{k}: paused");
                assert_eq!(
                    s.display_t, at as f64,
                    "{k} variant {variant}: the clock at {at}"
                );
                let view = s.view.clone().unwrap();
                assert!(view.now <= at, "{k}: no event after the moment is shown");
                assert_ne!(
                    view.status,
                    JobStatus::Finished,
                    "{k} variant {variant} at {at} ms"
                );
            }
        }
    }

    #[test]
    fn each_blank_is_answered_in_its_answers_form() {
        let blank = |answer: Answer, choices: Vec<i64>, labels: Vec<&str>| drill::Blank {
            name: "x".into(),
            answer,
            choices,
            labels: labels.into_iter().map(String::from).collect(),
            why: None,
        };
        assert_eq!(
            Form::of(&blank(Answer::Number(3), vec![], vec![])),
            Form::Typed
        );
        assert_eq!(
            Form::of(&blank(Answer::Set([1].into()), vec![1, 2], vec![])),
            Form::Values
        );
        assert_eq!(
            Form::of(&blank(Answer::Set([1].into()), vec![], vec![])),
            Form::Typed
        );
        let labels = blank(
            Answer::Labels(["src#1".to_string()].into()),
            vec![],
            vec!["src#0", "src#1"],
        );
        assert_eq!(Form::of(&labels), Form::Labels);
        let yes_no = Answer::Labels(["no".to_string(), "src#1".to_string()].into());
        assert_eq!(shown(&yes_no, Lang::Zh), "否、src#1");
        assert_eq!(shown(&yes_no, Lang::En), "no, src#1");
        assert_eq!(
            shown(&Answer::Labels(Default::default()), Lang::En),
            "(none)"
        );
    }
}
