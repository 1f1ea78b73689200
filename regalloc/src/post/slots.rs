//! Stack-slot colouring: spilled registers whose live ranges do not overlap share one spill slot (on the same stack), heaviest first (LLVM's `StackSlotColoring`).
//!
//! A spill slot holds a value only while the spilled register is live (its
//! stores follow definitions and its reloads precede uses inside the
//! interval), so two slots whose registers are never live at the same time
//! can be one. Slots are coloured in order of decreasing weight, each
//! taking the first colour whose slots it does not overlap; a colour's
//! size and alignment are the largest of its slots'.

use crate::analysis::{LiveRange, Segment};
use crate::ir::{FrameObject, MachineFunction};

use crate::alloc::matrix::ranges_overlap;
use crate::alloc::spiller::SpillSlot;

/// One colour: the slots merged into one stack object.
#[derive(Clone, PartialEq, Debug)]
pub struct Colour {
    /// Size in bytes (the largest member's).
    pub size: u64,
    /// Alignment in bytes (the largest member's).
    pub align: u32,
    /// The stack its members live in (slots of different stacks never
    /// share a colour).
    pub stack_id: Box<str>,
    /// The union of the members' live ranges.
    pub range: LiveRange,
}

/// The colour of each slot, and the colours.
pub fn colour(slots: &[SpillSlot]) -> (Vec<usize>, Vec<Colour>) {
    let mut by_weight: Vec<usize> = (0..slots.len()).collect();
    by_weight.sort_by(|&a, &b| {
        slots[b]
            .weight
            .total_cmp(&slots[a].weight)
            .then_with(|| a.cmp(&b))
    });
    let mut colour_of = vec![0; slots.len()];
    let mut colours: Vec<Colour> = Vec::new();
    for s in by_weight {
        let slot = &slots[s];
        let k = match colours
            .iter()
            .position(|c| c.stack_id == slot.stack_id && !ranges_overlap(&c.range, &slot.range))
        {
            Some(k) => {
                let c = &mut colours[k];
                c.size = c.size.max(slot.size);
                c.align = c.align.max(slot.align);
                c.range = union(&c.range, &slot.range);
                k
            }
            None => {
                colours.push(Colour {
                    size: slot.size,
                    align: slot.align,
                    stack_id: slot.stack_id.clone(),
                    range: union(&LiveRange::default(), &slot.range),
                });
                colours.len() - 1
            }
        };
        colour_of[s] = k;
    }
    (colour_of, colours)
}

/// Adds one `spill-slot` stack object per colour to `func`, with fresh ids
/// after the existing ones; returns the `%stack.N` id of each colour.
pub fn add_objects(func: &mut MachineFunction, colours: &[Colour]) -> Vec<u32> {
    let mut next = func.stack.iter().map(|o| o.id + 1).max().unwrap_or(0);
    colours
        .iter()
        .map(|c| {
            let id = next;
            next += 1;
            let mut object = FrameObject::spill_slot(id, c.size, c.align);
            object.stack_id = c.stack_id.clone();
            func.stack.push(object);
            id
        })
        .collect()
}

/// The union of two disjoint-or-not ranges as one sorted segment list
/// (value numbers are meaningless here and all set to 0).
fn union(a: &LiveRange, b: &LiveRange) -> LiveRange {
    let mut segs: Vec<Segment> = a
        .segments
        .iter()
        .chain(&b.segments)
        .map(|s| Segment { valno: 0, ..*s })
        .collect();
    segs.sort_by_key(|s| s.start);
    let mut out: Vec<Segment> = Vec::with_capacity(segs.len());
    for s in segs {
        match out.last_mut() {
            Some(l) if s.start <= l.end => l.end = l.end.max(s.end),
            _ => out.push(s),
        }
    }
    LiveRange {
        segments: out,
        valnos: Vec::new(),
    }
}
