//! [`Tables`] as Rust tokens: `static` rows that fill a `TargetInfo<'static>`, typed constants, and the fragment functions.
//!
//! Every path to the table types goes through the crate path the caller
//! passes (`::regalloc` by default), so the same tokens serve the proc-macro
//! (where the user's crate names `regalloc`) and build scripts.

use super::fragment::PARAM;
use super::tables::{
    BranchRow, ChoiceRow, ClassRow, CommuteRow, FoldRow, InstrRow, OperandRow, Tables, TemplateRow,
    ThreeAddressRow,
};
use crate::target::instrs::{OperandKind, TplOp};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::HashMap;
use std::collections::HashSet;

const KEYWORDS: &[&str] = &[
    "as", "break", "const", "continue", "else", "enum", "extern", "false", "fn", "for", "if",
    "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "static",
    "struct", "trait", "true", "type", "unsafe", "use", "where", "while", "async", "await", "dyn",
    "abstract", "become", "box", "do", "final", "macro", "override", "priv", "typeof", "unsized",
    "virtual", "yield", "try", "gen",
];

/// Turns `.td` names into distinct Rust identifiers (raw identifiers for keywords).
#[derive(Default)]
struct Namer {
    used: HashSet<String>,
}

impl Namer {
    fn ident(&mut self, name: &str) -> Ident {
        let mut s: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
            s.insert(0, '_');
        }
        // These cannot be raw identifiers.
        if matches!(s.as_str(), "_" | "self" | "Self" | "super" | "crate") {
            s.push('_');
        }
        let base = s.clone();
        let mut k = 1;
        while !self.used.insert(s.clone()) {
            s = format!("{base}_{k}");
            k += 1;
        }
        if KEYWORDS.contains(&s.as_str()) {
            Ident::new_raw(&s, Span::call_site())
        } else {
            Ident::new(&s, Span::call_site())
        }
    }
}

fn n(v: u32) -> Literal {
    Literal::u32_unsuffixed(v)
}

fn hex(v: u64) -> TokenStream {
    let lit = syn::LitInt::new(&format!("0x{v:X}"), Span::call_site());
    quote!(#lit)
}

fn words(w: &[u32]) -> TokenStream {
    let items = w.iter().map(|&x| hex(u64::from(x)));
    quote!(Cow::Borrowed(&[#(#items),*]))
}

fn regs_list(v: &[u32]) -> TokenStream {
    let items = v.iter().map(|&r| n(r));
    quote!(Cow::Borrowed(&[#(Reg(#items)),*]))
}

fn doc(s: String) -> TokenStream {
    let s = format!(" {s}");
    quote!(#[doc = #s])
}

fn class_row(c: &ClassRow, select: Option<&Ident>) -> TokenStream {
    let name = &c.name;
    let members = regs_list(&c.members);
    let member_bits = words(&c.member_bits);
    let orders = c.orders.iter().map(|o| regs_list(o));
    let order_select = match select {
        Some(f) => quote!(Some(OrderSelector::Compiled(#f))),
        None => quote!(None),
    };
    let policy = if c.as_written {
        quote!(AllocOrderPolicy::AsWritten)
    } else {
        quote!(AllocOrderPolicy::CalleeSavedLast)
    };
    let (reg_size, spill_size, spill_align) = (n(c.reg_size), n(c.spill_size), n(c.spill_align));
    let copy_cost = Literal::i32_unsuffixed(c.copy_cost);
    let allocatable = c.allocatable;
    let priority = Literal::u8_unsuffixed(c.priority);
    let lane_mask = hex(c.lane_mask);
    let sub_classes = words(&c.sub_classes);
    let super_classes = words(&c.super_classes);
    let scwsr = c.sub_class_with_sub_reg.iter().map(|x| match x {
        Some(k) => {
            let k = n(*k);
            quote!(Some(RegClass(#k)))
        }
        None => quote!(None),
    });
    let srcs = c.super_reg_classes.iter().map(|&(i, d)| {
        let (i, d) = (n(i), n(d));
        quote!(src(#i, #d))
    });
    let super_reg_classes = quote!(Cow::Borrowed(&[#(#srcs),*]));
    let (spill, reload, copy) = (choices(&c.spill), choices(&c.reload), choices(&c.copy));
    let mode_sizes = c.mode_sizes.iter().map(|&(r, s, a)| {
        let (r, s, a) = (n(r), n(s), n(a));
        quote!(ClassSizes { reg_size: #r, spill_size: #s, spill_align: #a })
    });
    let stack_id = &c.stack_id;
    let cannot_spill = match &c.cannot_spill {
        Some(why) => quote!(Some(Cow::Borrowed(#why))),
        None => quote!(None),
    };
    quote! {
        RegClassDesc {
            name: Cow::Borrowed(#name),
            members: #members,
            member_bits: #member_bits,
            orders: Cow::Borrowed(&[#(#orders),*]),
            order_select: #order_select,
            order_policy: #policy,
            reg_size: #reg_size,
            spill_size: #spill_size,
            spill_align: #spill_align,
            mode_sizes: Cow::Borrowed(&[#(#mode_sizes),*]),
            copy_cost: #copy_cost,
            allocatable: #allocatable,
            priority: #priority,
            lane_mask: LaneMask(#lane_mask),
            sub_classes: #sub_classes,
            super_classes: #super_classes,
            sub_class_with_sub_reg: Cow::Borrowed(&[#(#scwsr),*]),
            super_reg_classes: #super_reg_classes,
            spill: #spill,
            reload: #reload,
            copy: #copy,
            spill_stack_id: Cow::Borrowed(#stack_id),
            cannot_spill: #cannot_spill,
        }
    }
}

/// Template operands as tokens.
fn template_operands(ops: &[TplOp]) -> TokenStream {
    let ops = ops.iter().map(|o| match *o {
        TplOp::Reg => quote!(TemplateOperand::Reg),
        TplOp::Src => quote!(TemplateOperand::Src),
        TplOp::Slot => quote!(TemplateOperand::Slot),
        TplOp::Imm(v) => {
            let v = Literal::i64_unsuffixed(v);
            quote!(TemplateOperand::Imm(#v))
        }
        TplOp::Fixed(r) => {
            let r = n(r as u32);
            quote!(TemplateOperand::Fixed(Reg(#r)))
        }
        TplOp::NoReg => quote!(TemplateOperand::NoReg),
        TplOp::RegSub(i) => {
            let i = n(i as u32);
            quote!(TemplateOperand::RegSub(SubRegIndex(#i)))
        }
        TplOp::SrcSub(i) => {
            let i = n(i as u32);
            quote!(TemplateOperand::SrcSub(SubRegIndex(#i)))
        }
    });
    quote!(Cow::Borrowed(&[#(#ops),*]))
}

/// A spill, reload or copy template as tokens.
fn template(t: &TemplateRow) -> TokenStream {
    let opc = n(t.opcode);
    let ops = template_operands(&t.operands);
    quote!(InstrTemplate { opcode: Opcode(#opc), operands: #ops })
}

/// A class's choices of one kind as tokens.
fn choices(v: &[ChoiceRow]) -> TokenStream {
    let rows = v.iter().map(|c| {
        let features = hex(c.features);
        let template = template(&c.template);
        let unaligned = match &c.unaligned {
            Some(u) => {
                let u = self::template(u);
                quote!(Some(#u))
            }
            None => quote!(None),
        };
        quote!(TemplateChoice {
            features: FeatureSet(#features),
            template: #template,
            unaligned: #unaligned,
        })
    });
    quote!(Cow::Borrowed(&[#(#rows),*]))
}

/// A memory-operand fold as tokens.
fn fold_row(f: &FoldRow) -> TokenStream {
    let (r, m) = (n(f.reg_form), n(f.mem_form));
    let k = Literal::u8_unsuffixed(f.operand);
    let tied = match f.also {
        Some(u) => {
            let u = Literal::u8_unsuffixed(u);
            quote!(Some(#u))
        }
        None => quote!(None),
    };
    let address = template_operands(&f.address);
    let little_endian = f.little_endian;
    quote!(MemoryFoldDesc {
        reg_form: Opcode(#r),
        operand: #k,
        also: #tied,
        mem_form: Opcode(#m),
        address: #address,
        little_endian: #little_endian,
    })
}

fn branch_row(b: &BranchRow) -> TokenStream {
    let branch = n(b.branch);
    let reverse = match b.reverse {
        None => quote!(None),
        Some((inverse, condition)) => {
            let inverse = n(inverse);
            let condition = match condition {
                None => quote!(None),
                Some((k, x)) => {
                    let k = Literal::u8_unsuffixed(k);
                    let x = Literal::i64_unsuffixed(x);
                    quote!(Some((#k, #x)))
                }
            };
            quote!(Some(BranchReversal { inverse: Opcode(#inverse), condition: #condition }))
        }
    };
    quote!(ConditionalBranchDesc { branch: Opcode(#branch), reverse: #reverse })
}

/// A three-address form as tokens.
fn three_address_row(r: &ThreeAddressRow) -> TokenStream {
    use crate::target::three_address::Piece;
    let (two, three) = (n(r.two_address), n(r.three_address));
    let u8n = |k: usize| Literal::u8_unsuffixed(u8::try_from(k).unwrap_or(u8::MAX));
    let operands = r.operands.iter().map(|p| match *p {
        Piece::Def => quote!(ThreeAddressOperand::Def),
        Piece::Operand(k) => {
            let k = u8n(k);
            quote!(ThreeAddressOperand::Operand(#k))
        }
        Piece::Constrained(k, c) => {
            let (k, c) = (u8n(k), n(c as u32));
            quote!(ThreeAddressOperand::Constrained(#k, RegClass(#c)))
        }
        Piece::Negated(k, bits) => {
            let (k, bits) = (u8n(k), Literal::u8_unsuffixed(bits));
            quote!(ThreeAddressOperand::Negated(#k, #bits))
        }
        Piece::Widen(k, c, i) => {
            let (k, c, i) = (u8n(k), n(c as u32), n(i as u32));
            quote!(ThreeAddressOperand::Widened(#k, RegClass(#c), SubRegIndex(#i)))
        }
        Piece::Insert(k, c, i) => {
            let (k, c, i) = (u8n(k), n(c as u32), n(i as u32));
            quote!(ThreeAddressOperand::Inserted(#k, RegClass(#c), SubRegIndex(#i)))
        }
        Piece::Result(c, i) => {
            let (c, i) = (n(c as u32), n(i as u32));
            quote!(ThreeAddressOperand::Result(RegClass(#c), SubRegIndex(#i)))
        }
        Piece::Imm(v) => {
            let v = Literal::i64_unsuffixed(v);
            quote!(ThreeAddressOperand::Imm(#v))
        }
        Piece::NoReg => quote!(ThreeAddressOperand::NoReg),
        Piece::Fixed(reg) => {
            let reg = n(reg as u32);
            quote!(ThreeAddressOperand::Fixed(Reg(#reg)))
        }
    });
    let immediate = match r.immediate {
        None => quote!(None),
        Some((k, v)) => {
            let k = Literal::u8_unsuffixed(k);
            let v = Literal::i64_unsuffixed(v);
            quote!(Some((#k, #v)))
        }
    };
    let order = r
        .new_register_order
        .iter()
        .map(|&k| Literal::u8_unsuffixed(k));
    quote!(ThreeAddressDesc {
        two_address: Opcode(#two),
        three_address: Opcode(#three),
        operands: Cow::Borrowed(&[#(#operands),*]),
        immediate: #immediate,
        new_register_order: Cow::Borrowed(&[#(#order),*]),
    })
}

fn commute_row(r: &CommuteRow) -> TokenStream {
    let instr = n(r.instr);
    let commutes = r.commutes;
    let condition = match r.condition {
        None => quote!(None),
        Some((k, x)) => {
            let k = Literal::u8_unsuffixed(k);
            let x = Literal::i64_unsuffixed(x);
            quote!(Some((#k, #x)))
        }
    };
    quote!(CommuteRuleDesc { instr: Opcode(#instr), commutes: #commutes, condition: #condition })
}

fn operand_row(o: &OperandRow) -> TokenStream {
    let name = &o.name;
    let kind = match o.kind {
        OperandKind::Register => quote!(OperandKind::Register),
        OperandKind::Immediate => quote!(OperandKind::Immediate),
        OperandKind::Block => quote!(OperandKind::Block),
        OperandKind::Other => quote!(OperandKind::Other),
    };
    let class = match o.class {
        Some(c) => {
            let c = n(c);
            quote!(Some(RegClass(#c)))
        }
        None => quote!(None),
    };
    let is_def = o.is_def;
    let tied = match o.tied_to {
        Some(t) => {
            let t = Literal::u8_unsuffixed(t);
            quote!(Some(#t))
        }
        None => quote!(None),
    };
    let ec = o.early_clobber;
    quote!(op(#name, #kind, #class, #is_def, #tied, #ec))
}

/// The instruction rows, with operand lists shared between instructions
/// that have the same ones: `(statics, rows)`.
fn instr_rows(instrs: &[InstrRow]) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut shared: HashMap<Vec<String>, Ident> = HashMap::new();
    let mut statics = Vec::new();
    let mut rows = Vec::new();
    for i in instrs {
        let ops: Vec<TokenStream> = i.operands.iter().map(operand_row).collect();
        let key: Vec<String> = ops.iter().map(|t| t.to_string()).collect();
        let ops_ref = if ops.is_empty() {
            quote!(&[])
        } else {
            let id = match shared.get(&key) {
                Some(id) => id.clone(),
                None => {
                    let id = format_ident!("OPS_{}", shared.len());
                    let len = ops.len();
                    statics.push(quote!(static #id: [OperandDesc<'static>; #len] = [#(#ops),*];));
                    shared.insert(key, id.clone());
                    id
                }
            };
            quote!(&#id)
        };
        let name = &i.name;
        let nd = Literal::u8_unsuffixed(i.num_defs);
        let defs = i.implicit_defs.iter().map(|&r| n(r));
        let uses = i.implicit_uses.iter().map(|&r| n(r));
        let fl = hex(u64::from(i.flags));
        rows.push(quote!(ins(#name, #ops_ref, #nd, &[#(Reg(#defs)),*], &[#(Reg(#uses)),*], #fl)));
    }
    (statics, rows)
}

/// The generated items: `pub use tables::TARGET`, the constant modules and the `tables` module.
///
/// Errors (as messages) only when a fragment that `syn` accepted does not
/// lex as tokens here, which would be a bug.
pub fn tokens(t: &Tables, krate: &TokenStream) -> Result<TokenStream, String> {
    let src = &t.source;
    // Typed constants.
    let mut namer = Namer::default();
    let reg_consts = t.regs.iter().enumerate().map(|(k, r)| {
        let id = namer.ident(&r.name);
        let d = doc(format!("`{}`, defined at {}.", r.name, r.loc));
        let k = n(k as u32);
        quote!(#d pub const #id: Reg = Reg(#k);)
    });
    let reg_consts: Vec<_> = reg_consts.collect();
    let mut namer = Namer::default();
    let class_consts: Vec<_> = t
        .classes
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let id = namer.ident(&c.name);
            let d = if c.inferred {
                doc(format!(
                    "`{}`, inferred by tdgen from the class at {}.",
                    c.name, c.loc
                ))
            } else {
                doc(format!("`{}`, defined at {}.", c.name, c.loc))
            };
            let k = n(k as u32);
            quote!(#d pub const #id: RegClass = RegClass(#k);)
        })
        .collect();
    let mut namer = Namer::default();
    let index_consts: Vec<_> = t
        .indices
        .iter()
        .enumerate()
        .map(|(k, x)| {
            let id = namer.ident(&x.name);
            let d = if x.loc.starts_with("synthesized") {
                doc(format!(
                    "`{}`, a composite index synthesized by tdgen.",
                    x.name
                ))
            } else {
                doc(format!("`{}`, defined at {}.", x.name, x.loc))
            };
            let k = n(k as u32);
            quote!(#d pub const #id: SubRegIndex = SubRegIndex(#k);)
        })
        .collect();
    let mut namer = Namer::default();
    let csr_consts: Vec<_> = t
        .callee_saved
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let id = namer.ident(&c.name);
            let d = doc(format!("`{}`, defined at {}.", c.name, c.loc));
            let k = n(k as u32);
            quote!(#d pub const #id: CalleeSavedSet = CalleeSavedSet(#k);)
        })
        .collect();

    let mut namer = Namer::default();
    let opcode_consts: Vec<_> = t
        .instrs
        .iter()
        .enumerate()
        .map(|(k, i)| {
            let id = namer.ident(&i.name);
            let d = doc(format!("`{}`, defined at {}.", i.name, i.loc));
            let k = n(k as u32);
            quote!(#d pub const #id: Opcode = Opcode(#k);)
        })
        .collect();
    let (ops_statics, instr_rows) = instr_rows(&t.instrs);
    let nin = t.instrs.len();

    // Rows.
    let regs = t.regs.iter().map(|r| {
        let name = &r.name;
        let enc = Literal::u16_unsuffixed(r.encoding);
        let subs = r.sub_regs.iter().map(|&(i, s)| {
            let (i, s) = (n(i), n(s));
            quote!((SubRegIndex(#i), Reg(#s)))
        });
        let supers = regs_list(&r.super_regs);
        let units = r.units.iter().map(|&u| n(u));
        let lanes = r.unit_lanes.iter().map(|&m| hex(m));
        let cost = Literal::u8_unsuffixed(r.cost_per_use);
        let flags = Literal::u8_unsuffixed(r.flags);
        quote! {
            RegisterDesc {
                name: Cow::Borrowed(#name),
                encoding: #enc,
                sub_regs: Cow::Borrowed(&[#(#subs),*]),
                super_regs: #supers,
                units: Cow::Borrowed(&[#(RegUnit(#units)),*]),
                unit_lanes: Cow::Borrowed(&[#(LaneMask(#lanes)),*]),
                cost_per_use: #cost,
                flags: RegFlags(#flags),
            }
        }
    });
    let units = t.units.iter().map(|&(a, b)| {
        let a = n(a);
        let b = match b {
            Some(b) => {
                let b = n(b);
                quote!(Some(Reg(#b)))
            }
            None => quote!(None),
        };
        quote!(RegUnitDesc { root: Reg(#a), root2: #b })
    });
    let opt16 = |v: Option<u16>| match v {
        Some(x) => {
            let x = Literal::u16_unsuffixed(x);
            quote!(Some(#x))
        }
        None => quote!(None),
    };
    let indices = t.indices.iter().map(|x| {
        let name = &x.name;
        let (size, offset) = (opt16(x.size), opt16(x.offset));
        let lm = hex(x.lane_mask);
        quote!(SubRegIndexDesc { name: Cow::Borrowed(#name), size: #size, offset: #offset, lane_mask: LaneMask(#lm) })
    });
    let compose = t.compose.iter().map(|c| match c {
        Some(c) => {
            let c = n(*c);
            quote!(Some(SubRegIndex(#c)))
        }
        None => quote!(None),
    });
    let mut select_fns = Vec::new();
    let mut classes = Vec::new();
    let param = format_ident!("{}", PARAM);
    for (k, c) in t.classes.iter().enumerate() {
        let f = match &c.order_select {
            Some(fr) => {
                // The fragment's tree as Rust: a feature by its bit (the
                // description-time checks made sure the target has it).
                let feature = |name: &str| {
                    let bit = t.features.iter().position(|(n, _)| n == name).unwrap_or(0);
                    let bit = proc_macro2::Literal::u64_unsuffixed(1u64 << bit);
                    quote!(#param.features.contains(FeatureSet(#bit)))
                };
                let body = fr.tree.to_rust(&feature);
                let f = format_ident!("alt_order_select_{}", k);
                let d = doc(format!("`AltOrderSelect` of `{}` ({}).", c.name, c.loc));
                select_fns.push(quote! {
                    #d
                    #[allow(unused_variables, unused_parens, clippy::needless_return)]
                    fn #f(#param: &FunctionInfo) -> usize { #body }
                });
                Some(f)
            }
            None => None,
        };
        classes.push(class_row(c, f.as_ref()));
    }
    let csrs = t.callee_saved.iter().map(|c| {
        let name = &c.name;
        let saves = regs_list(&c.saves);
        let mask = words(&c.mask);
        quote!(CalleeSavedDesc { name: Cow::Borrowed(#name), saves: #saves, mask: #mask })
    });
    let folds = t.folds.iter().map(fold_row);
    let nfolds = t.folds.len();
    let branches = t.conditional_branches.iter().map(branch_row);
    let nbranches = t.conditional_branches.len();
    let commute_rules = t.commute_rules.iter().map(commute_row);
    let ncommute_rules = t.commute_rules.len();
    let three_address_forms = t.three_address_forms.iter().map(three_address_row);
    let nthree_address_forms = t.three_address_forms.len();
    let jump_table_branches = t.jump_table_branches.iter().map(|&b| {
        let b = n(b);
        quote!(Opcode(#b))
    });
    let njump_table_branches = t.jump_table_branches.len();
    let unconditional_branch = match t.unconditional_branch {
        Some(b) => {
            let b = n(b);
            quote!(Some(Opcode(#b)))
        }
        None => quote!(None),
    };
    let reserved = words(&t.reserved);
    let frame_pointer = words(&t.frame_pointer);
    let frame_pointer_in_non_leaf = t.frame_pointer_in_non_leaf;
    let stack_alignment = n(t.stack_alignment);
    let base_pointer = words(&t.base_pointer);
    let base_pointer_frame_size = n(t.base_pointer_frame_size);
    let spill_realign_needs_frame_pointer = t.spill_realign_needs_frame_pointer;
    let join_global_copies = t.join_global_copies;
    let tracks_sub_reg_liveness = t.tracks_sub_reg_liveness;
    let untracked = words(&t.untracked);
    let reserved_without = t.reserved_without.iter().map(|(fs, regs)| {
        let fs = hex(*fs);
        let regs = words(regs);
        quote!(ReservedWithout { features: FeatureSet(#fs), regs: #regs })
    });
    let features = t.features.iter().map(|(name, implies)| {
        let implies = hex(*implies);
        quote!(FeatureDesc { name: Cow::Borrowed(#name), implies: FeatureSet(#implies) })
    });
    let hw_modes = t.hw_modes.iter().map(|(name, requires, excludes)| {
        let (r, e) = (hex(*requires), hex(*excludes));
        quote!(HwModeDesc {
            name: Cow::Borrowed(#name),
            requires: FeatureSet(#r),
            excludes: FeatureSet(#e),
        })
    });
    let name = &t.name;
    let (nr, nu, ni, nc, ncs) = (
        t.regs.len(),
        t.units.len(),
        t.indices.len(),
        t.classes.len(),
        t.callee_saved.len(),
    );
    let ncomp = ni * ni;
    let top_doc = doc(format!(
        "The `{name}` target's tables, compiled by tdgen from `{src}`."
    ));
    let regs_doc = doc(format!(
        "Registers of `{name}` ({nr}), as [`Reg`] constants."
    ));
    let classes_doc = doc(format!(
        "Register classes of `{name}` ({nc}), as [`RegClass`] constants."
    ));
    let subs_doc = doc(format!(
        "Sub-register indices of `{name}` ({ni}), as [`SubRegIndex`] constants."
    ));
    let opcodes_doc = doc(format!(
        "Instructions of `{name}` ({nin}), as [`Opcode`] constants."
    ));
    let csr_doc = doc(format!(
        "Callee-saved sets of `{name}` ({ncs}), as [`CalleeSavedSet`] constants."
    ));
    Ok(quote! {
        #top_doc
        pub use self::tables::TARGET;

        #regs_doc
        #[allow(non_upper_case_globals, dead_code)]
        pub mod regs {
            #[allow(unused_imports)]
            use #krate::target::Reg;
            #(#reg_consts)*
        }

        #classes_doc
        #[allow(non_upper_case_globals, dead_code)]
        pub mod classes {
            #[allow(unused_imports)]
            use #krate::target::RegClass;
            #(#class_consts)*
        }

        #subs_doc
        #[allow(non_upper_case_globals, dead_code)]
        pub mod sub_regs {
            #[allow(unused_imports)]
            use #krate::target::SubRegIndex;
            #(#index_consts)*
        }

        #csr_doc
        #[allow(non_upper_case_globals, dead_code)]
        pub mod callee_saved {
            #[allow(unused_imports)]
            use #krate::target::CalleeSavedSet;
            #(#csr_consts)*
        }

        #opcodes_doc
        #[allow(non_upper_case_globals, dead_code)]
        pub mod opcodes {
            #[allow(unused_imports)]
            use #krate::target::Opcode;
            #(#opcode_consts)*
        }

        /// The raw table rows behind [`TARGET`].
        #[allow(clippy::all)]
        pub mod tables {
            #[allow(unused_imports)]
            use #krate::target::{
                AllocOrderPolicy, BranchReversal, CalleeSavedDesc, ClassSizes, CommuteRuleDesc, ConditionalBranchDesc, FeatureDesc, FeatureSet, FunctionInfo,
                HwModeDesc, InstrDesc, InstrFlags, InstrTemplate, LaneMask, MemoryFoldDesc, Opcode,
                OperandDesc, OperandKind, OrderSelector, Reg, RegClass, RegClassDesc, RegFlags, RegUnit, RegUnitDesc,
                RegisterDesc, ReservedWithout, SubRegIndex, SubRegIndexDesc, TargetInfo,
                TemplateChoice, TemplateOperand, ThreeAddressDesc, ThreeAddressOperand,
            };
            use ::std::borrow::Cow;

            #top_doc
            pub static TARGET: TargetInfo<'static> = TargetInfo {
                name: Cow::Borrowed(#name),
                regs: Cow::Borrowed(&REGS),
                units: Cow::Borrowed(&UNITS),
                sub_reg_indices: Cow::Borrowed(&SUB_REG_INDICES),
                sub_reg_compose: Cow::Borrowed(&SUB_REG_COMPOSE),
                classes: Cow::Borrowed(&CLASSES),
                callee_saved: Cow::Borrowed(&CALLEE_SAVED),
                reserved: #reserved,
                frame_pointer: #frame_pointer,
                frame_pointer_in_non_leaf: #frame_pointer_in_non_leaf,
                stack_alignment: #stack_alignment,
                base_pointer: #base_pointer,
                base_pointer_frame_size: #base_pointer_frame_size,
                spill_realign_needs_frame_pointer: #spill_realign_needs_frame_pointer,
                join_global_copies: #join_global_copies,
                tracks_sub_reg_liveness: #tracks_sub_reg_liveness,
                reserved_without: Cow::Borrowed(&[#(#reserved_without),*]),
                untracked: #untracked,
                features: Cow::Borrowed(&[#(#features),*]),
                hw_modes: Cow::Borrowed(&[#(#hw_modes),*]),
                instrs: Cow::Borrowed(&INSTRS),
                memory_folds: Cow::Borrowed(&MEMORY_FOLDS),
                unconditional_branch: #unconditional_branch,
                conditional_branches: Cow::Borrowed(&CONDITIONAL_BRANCHES),
                commute_rules: Cow::Borrowed(&COMMUTE_RULES),
                jump_table_branches: Cow::Borrowed(&JUMP_TABLE_BRANCHES),
                three_address_forms: Cow::Borrowed(&THREE_ADDRESS_FORMS),
            };

            /// A `super_reg_classes` entry (keeps the tables short).
            const fn src(i: u32, c: u32) -> (SubRegIndex, RegClass) {
                (SubRegIndex(i), RegClass(c))
            }

            /// An operand row (keeps the tables short).
            const fn op(
                name: &'static str,
                kind: OperandKind,
                class: Option<RegClass>,
                is_def: bool,
                tied_to: Option<u8>,
                early_clobber: bool,
            ) -> OperandDesc<'static> {
                OperandDesc { name: Cow::Borrowed(name), kind, class, is_def, tied_to, early_clobber }
            }

            /// An instruction row (keeps the tables short).
            const fn ins(
                name: &'static str,
                operands: &'static [OperandDesc<'static>],
                num_defs: u8,
                implicit_defs: &'static [Reg],
                implicit_uses: &'static [Reg],
                flags: u32,
            ) -> InstrDesc<'static> {
                InstrDesc {
                    name: Cow::Borrowed(name),
                    operands: Cow::Borrowed(operands),
                    num_defs,
                    implicit_defs: Cow::Borrowed(implicit_defs),
                    implicit_uses: Cow::Borrowed(implicit_uses),
                    flags: InstrFlags(flags),
                }
            }

            /// Instructions, indexed by `Opcode`.
            pub static INSTRS: [InstrDesc<'static>; #nin] = [#(#instr_rows),*];
            #(#ops_statics)*

            /// Registers, indexed by `Reg`.
            pub static REGS: [RegisterDesc<'static>; #nr] = [#(#regs),*];
            /// Register units and their roots, indexed by `RegUnit`.
            pub static UNITS: [RegUnitDesc; #nu] = [#(#units),*];
            /// Sub-register indices, indexed by `SubRegIndex`.
            pub static SUB_REG_INDICES: [SubRegIndexDesc<'static>; #ni] = [#(#indices),*];
            /// Composition of sub-register indices, row-major.
            pub static SUB_REG_COMPOSE: [Option<SubRegIndex>; #ncomp] = [#(#compose),*];
            /// Register classes, indexed by `RegClass`.
            pub static CLASSES: [RegClassDesc<'static>; #nc] = [#(#classes),*];
            /// Callee-saved sets, indexed by `CalleeSavedSet`.
            pub static CALLEE_SAVED: [CalleeSavedDesc<'static>; #ncs] = [#(#csrs),*];
            /// Memory-operand folds, sorted by register form and operand.
            pub static MEMORY_FOLDS: [MemoryFoldDesc<'static>; #nfolds] = [#(#folds),*];
            /// Conditional branches the branch analysis understands, by opcode.
            pub static CONDITIONAL_BRANCHES: [ConditionalBranchDesc; #nbranches] = [#(#branches),*];
            /// What commuting an instruction does beyond swapping two uses, by opcode.
            pub static COMMUTE_RULES: [CommuteRuleDesc; #ncommute_rules] = [#(#commute_rules),*];
            /// Jump-table branches whose edges are split by rewriting the table.
            pub static JUMP_TABLE_BRANCHES: [Opcode; #njump_table_branches] = [#(#jump_table_branches),*];
            /// What two-address instructions become when their tie would cost a copy, by opcode.
            pub static THREE_ADDRESS_FORMS: [ThreeAddressDesc<'static>; #nthree_address_forms] = [#(#three_address_forms),*];

            #(#select_fns)*
        }
    })
}
