//! Exporting a scenario to run it elsewhere: [`flink`] writes it as a Flink 2.3
//! DataStream job, so a learner who outgrows the simulation runs the same lesson
//! on real Flink — and the differential tests hold the lab against it.
//!
//! Pure text generation (no file or process access), so the page can show the
//! Java too; `lab export` writes the file.

pub mod flink;
