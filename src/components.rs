//! The page's regions, one file each.
//!
//! # Layout
//! - [`topbar`]: the mark and title, scenario, mode, the lesson's buttons, the tools menu, A⁺, fullscreen, `?`, language.
//! - [`lang_switch`]: the 中文 / English switch.
//! - [`stage`]: the SVG job graph drawn from a [`crate::scene::Scene`] with its coordinator strip and banners.
//! - [`token_layer`]: the moving records and barriers, painted on a canvas over the stage.
//! - [`caption`]: the caption bar under the graph: the latest narration (the page's live region), key moments.
//! - [`transport`]: the transport bar: step / play / step, speed, skip quiet stretches, auto-pause, the scrubber, interventions.
//! - [`legend`]: what each colour and shape on the stage means.
//! - [`side_panel`]: the rail of tabs that opens into a drawer (coordinator, storage, sink, narration, bench; tour, subtask, glossary, editor).
//! - [`task_popover`]: a subtask's state (offsets, keyed state, transactions) and its crash button.
//! - [`phase_timeline`]: a checkpoint's phases per subtask as a Gantt (the coordinator's history, real statistics).
//! - [`coordinator_panel`], [`storage_panel`], [`sink_panel`], [`narration_panel`], [`bench_panel`]: the side panel's tabs.
//! - [`flink_panel`]: the Flink code tab (the run on stage as Java, copy, download, the command); [`real_stats_panel`]: real checkpoint statistics beside the lab's.
//! - [`qr_dialog`]: the QR code and short link of the current moment.
//! - [`slide_export`]: the stage saved as SVG and as a 1920 × 1080 PNG for slides.
//! - [`shortcuts`]: the `?` overlay: the key map.
//! - [`icons`]: inline SVG icons (no icon font, no CDN).
//! - [`key_group_strip`]: a rescaled restore's key groups and partitions by owning subtask, before and after.
//! - [`input`]: reading a form control's value from its event.
//! - [`restart_meter`]: the restart strategy's count against its limit, and the failure-rate window on the scrubber.

pub mod bench_panel;
pub mod caption;
pub mod coordinator_panel;
pub mod flink_panel;
pub mod icons;
pub mod input;
pub mod key_group_strip;
pub mod lang_switch;
pub mod legend;
pub mod narration_panel;
pub mod phase_timeline;
pub mod qr_dialog;
pub mod real_stats_panel;
pub mod restart_meter;
pub mod shortcuts;
pub mod side_panel;
pub mod sink_panel;
pub mod slide_export;
pub mod sources_line;
pub mod stage;
pub mod storage_panel;
pub mod task_popover;
pub mod token_layer;
pub mod topbar;
pub mod transport;

pub use bench_panel::BenchPanel;
pub use caption::CaptionBar;
pub use coordinator_panel::CoordinatorPanel;
pub use flink_panel::FlinkPanel;
pub use key_group_strip::KeyGroupStrips;
pub use lang_switch::LangSwitch;
pub use legend::Legend;
pub use narration_panel::NarrationPanel;
pub use qr_dialog::QrDialog;
pub use shortcuts::ShortcutsOverlay;
pub use side_panel::SidePanel;
pub use sink_panel::SinkPanel;
pub use stage::Stage;
pub use storage_panel::StoragePanel;
pub use task_popover::TaskPopover;
pub use topbar::TopBar;
pub use transport::Transport;
