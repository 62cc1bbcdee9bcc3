//! C's objects on the IR's heap: what a structure type is (its members,
//! its class), the memory of each scalar type, and making objects. Every
//! object is a row of slots ([`super::layout`]); the value of a slot of
//! IR type `T` is at the pointer's index of the array `$cell_T.v` (the
//! value field of the one-field class `$cell_T`), so that `&x`, `*p = 3`
//! and `p == &x` are accesses and comparisons like any other, aliasing
//! included. A structure's class has no fields: its members live in those
//! arrays. A `pthread_mutex_t` is a reference to an object of the
//! field-less class `$mutex`, whose lock is the object's lock.
//!
//! References are unique across classes (the IR numbers every object
//! it makes), so what the unit knows of objects besides their members
//! lives in arrays indexed by references, one per unit ([`Mem`]):
//! `$freed` (set by `free`; every access through a pointer checks it: a
//! use after free; and so does `free`: a double free), `$malloced` (set
//! for the objects `malloc` made; `free` of another object is an invalid
//! free) and the global `$live`, the number of objects `malloc` made and
//! `free` did not free (not 0 when `main` returns: a memory leak, see
//! `alloc.rs`). The checks of an access are the IR's
//! ([`pointer::checked`]).

use super::{CSpan, Fun, Res, Unit};
use crate::types::{CInt, CType, Len};
use lang_c::ast;
use lang_c::span::Node;
use std::cell::RefCell;
use std::collections::HashMap;
use wiser_ir::{
    pointer, ArrayId, ArrayTy, Builder, ClassId, Diagnostic, ErrorKind, Expr, Place, ScalarTy,
};
use wiser_num::IntTy;

impl Heap {
    /// What the IR does not check of memory safety in this program, by
    /// kind (`alloc::leak_check` adds its own).
    pub fn unchecked(&self) -> Vec<(ErrorKind, String)> {
        let mut out = Vec::new();
        let Some(_) = self.mem else { return out };
        if self.untyped && self.from_void {
            out.push((ErrorKind::OutOfBounds, "the program allocates bytes of a type `malloc` is not told (`malloc(16)`) and converts `void *` to wider types: wiser checks an access to such an object against its size in bytes, not in elements".to_string()));
        }
        out
    }
}

/// A structure type as declared.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// Its tag, if it has one.
    pub tag: Option<String>,
    /// Its members (`None` while only declared: `struct node;`), an
    /// unnamed bit-field (`int : 3;`, padding) with the empty name.
    pub fields: Option<Vec<(String, CType)>>,
    /// The width of each of `fields` that is a bit-field
    /// ([`super::bitfields`]).
    pub widths: Vec<Option<u32>>,
    /// The most its members are aligned to, in bytes, where `#pragma
    /// pack` packs it.
    pub pack: Option<u32>,
    /// Is it a `union` (members laid out one after the other like a
    /// structure's, kept in step by [`super::unions`])?
    pub union: bool,
    /// A gcc attribute that changes its layout in a way not laid out
    /// here (`aligned`, `packed` on a member): it then has no byte layout
    /// ([`super::layout::bytes`] is `None`), so what needs one is refused.
    pub unmodelled: Option<String>,
}

/// The layout attribute among `exts` that wiser does not lay out
/// (`aligned(8)`, a member's `packed`), as written.
pub fn layout_attribute(exts: &[Node<ast::Extension>]) -> Option<String> {
    let names: Vec<&str> = exts
        .iter()
        .filter_map(|e| match &e.node {
            ast::Extension::Attribute(a) => Some(a.name.node.trim_matches('_')),
            _ => None,
        })
        .collect();
    // `aligned` first: with it, `packed` is not all there is to lay out.
    ["aligned", "packed"]
        .into_iter()
        .find(|n| names.contains(n))
        .map(|n| format!("`__attribute__(({n}))`"))
}

/// The type a typedef names: `ty`, or, when its declarator has a layout
/// attribute (`typedef int A8 __attribute__((aligned(8)));`, which
/// changes where the type goes in a structure), a type outside the
/// subset, an error where it is used.
pub fn typedef_type(ty: CType, d: &ast::Declarator) -> CType {
    match layout_attribute(&d.extensions) {
        Some(a) => CType::Opaque(format!("a type with {a}").into(), None),
        None => ty,
    }
}

/// Marks the structure a declaration defines (its type `ty`) as laid out
/// by an attribute wiser does not lay out ([`StructDef::unmodelled`])
/// when the declaration has one: `struct S { … }
/// __attribute__((aligned(16)));` (the attribute after the body is the
/// declaration's).
pub fn declared_attributes(u: &Unit, specs: &[Node<ast::DeclarationSpecifier>], ty: &CType) {
    use ast::DeclarationSpecifier as DS;
    let mut attribute = None;
    let mut defines = false;
    for s in specs {
        match &s.node {
            DS::Extension(e) => attribute = attribute.or(layout_attribute(e)),
            DS::TypeSpecifier(t) => {
                defines |= matches!(&t.node, ast::TypeSpecifier::Struct(st) if st.node.declarations.is_some());
            }
            _ => {}
        }
    }
    if let (Some(a), CType::Struct(i), true) = (attribute, ty, defines) {
        if let Some(s) = u.heap.structs.borrow_mut().get_mut(*i as usize) {
            s.unmodelled.get_or_insert(a);
        }
    }
}

/// What an object holds, for [`super::leaks`]: elements of type `ty`,
/// each `per` units of its length (`$len`) apart — its slots, or its
/// bytes for an object of bytes (`malloc(16)`) used as a `ty`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kind {
    pub ty: CType,
    pub per: u64,
}

/// The number of a [`Kind`] (made on first use).
pub fn kind(u: &mut Unit, ty: &CType, per: u64) -> u64 {
    let k = Kind {
        ty: ty.clone(),
        per,
    };
    match u.heap.kinds.iter().position(|x| *x == k) {
        Some(i) => i as u64,
        None => {
            u.heap.kinds.push(k);
            u.heap.kinds.len() as u64 - 1
        }
    }
}

/// The unit's arrays about objects (see the module's documentation),
/// indexed by references (objects, not pointers: see
/// [`wiser_ir::pointer`]).
#[derive(Clone, Copy, Debug)]
pub struct Mem {
    /// `$len`: how many elements each object has.
    pub len: ArrayId,
    /// `$freed`: the objects `free` freed.
    pub freed: ArrayId,
    /// `$malloced`: the objects `malloc` (or `calloc`) made.
    pub malloced: ArrayId,
    /// `$live`: how many of those are not freed.
    pub live: Place,
    /// `$objects`: how many objects have been made (the last one's
    /// reference is its negation).
    pub count: Place,
    /// `$kind`: the number of each object's type in
    /// [`Heap::kinds`] ([`super::leaks`] follows its pointers).
    pub kinds: ArrayId,
    /// `$freed after` and `$last malloc`, in a program that frees: for a
    /// freed object, the last object `malloc` had made when it was freed
    /// (the objects made later may have its address,
    /// [`super::alloc::equal_addresses`]); the last object `malloc` made.
    pub reuse: Option<(ArrayId, Place)>,
    /// `$junk`: how many cells of memory's arbitrary contents have been
    /// read as any value (`unions.rs`), the index of the next.
    pub junk: Place,
    /// `$elem bytes` and `$elem slots`: the size in bytes and in slots of
    /// each object's element, kept in a program that calls a byte
    /// function (`memset` on a `void *` learns there what it points to,
    /// `bytes.rs`).
    pub elem: Option<(ArrayId, ArrayId)>,
}

/// The unit's [`Mem`], made on first use.
pub fn mem(u: &mut Unit, b: &mut Builder) -> Mem {
    if let Some(m) = u.heap.mem {
        return m;
    }
    let zero = Some(wiser_num::Int::from(0));
    let m = Mem {
        len: b.array("$len", field_ty(ScalarTy::INT), zero.clone()),
        freed: b.array("$freed", FLAG_TY, zero.clone()),
        malloced: b.array("$malloced", FLAG_TY, zero.clone()),
        live: b.global("$live", ScalarTy::INT, zero.clone()),
        count: b.global("$objects", ScalarTy::INT, zero.clone()),
        kinds: b.array("$kind", field_ty(ScalarTy::INT), zero.clone()),
        reuse: u.frees.then(|| {
            (
                b.array("$freed after", field_ty(ScalarTy::INT), zero.clone()),
                b.global("$last malloc", ScalarTy::INT, zero.clone()),
            )
        }),
        junk: b.global("$junk", ScalarTy::INT, zero.clone()),
        elem: u.byte_functions.then(|| {
            (
                b.array("$elem bytes", field_ty(ScalarTy::INT), zero.clone()),
                b.array("$elem slots", field_ty(ScalarTy::INT), zero.clone()),
            )
        }),
    };
    u.heap.mem = Some(m);
    m
}

/// The unit's structures and classes.
#[derive(Default)]
pub struct Heap {
    /// Structures, by index (`CType::Struct(i)`). Declared while types
    /// are read, which happens through shared references to the unit.
    pub structs: RefCell<Vec<StructDef>>,
    /// Structure tags in scope.
    pub tags: RefCell<HashMap<String, u32>>,
    /// Has a union with more than one member been defined (whose stores
    /// `super::unions` keeps in step)?
    pub unions: std::cell::Cell<bool>,
    /// How many anonymous members have been named
    /// ([`super::layout::anonymous_member`]).
    pub anonymous: std::cell::Cell<usize>,
    /// Classes of structures, by structure index.
    pub classes: HashMap<u32, ClassId>,
    /// Cell classes, by the IR type of their value, and their value
    /// arrays: the memory of that type ([`super::layout`]).
    pub cells: HashMap<ScalarTy, (ClassId, ArrayId)>,
    /// The class of mutexes.
    pub mutex: Option<ClassId>,
    /// Objects the IR's main routine makes, zeroed, before any
    /// initialiser runs (cells, structures, mutexes and arrays of
    /// structures or pointers of globals and static locals), with their
    /// element types and lengths.
    pub startup: Vec<(Place, CType, u64)>,
    /// The arrays about objects, once made.
    pub mem: Option<Mem>,
    /// Pointers into unions' members ([`super::union_ptrs`]).
    pub union_ptrs: super::union_ptrs::State,
    /// The unions punned variables live in, by name and type
    /// ([`super::punned`]).
    pub punned: RefCell<HashMap<(String, crate::types::CInt), u32>>,
    /// The cells of punned globals: their union and member.
    pub punned_cells: RefCell<HashMap<Place, (u32, String)>>,
    /// Can a global (or static local) hold a pointer: is a heap object
    /// that no local points to still reachable when `main` returns?
    pub global_pointers: bool,
    /// The globals (and static locals) that are pointers, held in a
    /// place: roots of what is reachable when `main` returns
    /// ([`super::leaks`]).
    pub root_pointers: Vec<Place>,
    /// The types of the objects the program makes, numbered as `$kind`
    /// numbers them.
    pub kinds: Vec<Kind>,
    /// Does the program call `memcpy` or `memmove` (which can copy a
    /// pointer into an object of bytes)?
    pub byte_copies: bool,
    /// The calls of `exit` and `abort` that check whether objects
    /// `malloc` made are live when they end the program (`call.rs`): the
    /// places of the IR's [`wiser_ir::Ir::undecided`].
    pub exit_checks: Vec<wiser_ir::Span>,
    /// Does the program allocate bytes of a type `malloc` is not told
    /// (`malloc(16)`)?
    pub untyped: bool,
    /// Does it convert a `void *` to a pointer to something wider than a
    /// byte?
    pub from_void: bool,
}

/// Reads the members one declaration in a structure declares, with the
/// width of each that is a bit-field.
pub type Members = dyn Fn(&Unit, &Node<ast::StructField>) -> Res<Vec<(String, CType, Option<u32>)>>;

/// The type of a `struct` or `union` specifier, declaring it when it has
/// members. A union is a structure whose members [`super::unions`] keeps
/// in step.
pub fn struct_type(u: &Unit, st: &ast::StructType, at: CSpan, member: &Members) -> Res<CType> {
    let union = st.kind.node == ast::StructKind::Union;
    let tag = st.identifier.as_ref().map(|i| i.node.name.clone());
    let Some(decls) = &st.declarations else {
        // A use (or forward declaration) of a tag.
        let Some(tag) = tag else {
            return Err(Diagnostic::new(
                u.span(at),
                format!(
                    "a `{}` without a tag or members",
                    if union { "union" } else { "struct" }
                ),
            ));
        };
        if let Some(i) = u.heap.tags.borrow().get(&tag) {
            return Ok(CType::Struct(*i));
        }
        let mut structs = u.heap.structs.borrow_mut();
        structs.push(StructDef {
            tag: Some(tag.clone()),
            fields: None,
            widths: Vec::new(),
            pack: None,
            union,
            unmodelled: None,
        });
        let i = structs.len() as u32 - 1;
        u.heap.tags.borrow_mut().insert(tag, i);
        return Ok(CType::Struct(i));
    };
    // A definition: the tag is bound first, so members may point to the
    // structure itself (`struct node *next`).
    let existing = tag
        .as_ref()
        .and_then(|t| u.heap.tags.borrow().get(t).copied());
    let index = match existing {
        Some(i) if u.heap.structs.borrow()[i as usize].fields.is_none() => i,
        _ => {
            let mut structs = u.heap.structs.borrow_mut();
            structs.push(StructDef {
                tag: tag.clone(),
                fields: None,
                widths: Vec::new(),
                pack: None,
                union,
                unmodelled: None,
            });
            let i = structs.len() as u32 - 1;
            if let Some(t) = &tag {
                u.heap.tags.borrow_mut().insert(t.clone(), i);
            }
            i
        }
    };
    let (mut fields, mut widths) = (Vec::new(), Vec::new());
    let mut unmodelled = None;
    for d in decls {
        if let ast::StructDeclaration::Field(fd) = &d.node {
            let specs = fd.node.specifiers.iter().filter_map(|s| match &s.node {
                ast::SpecifierQualifier::Extension(e) => layout_attribute(e),
                _ => None,
            });
            let decls = fd
                .node
                .declarators
                .iter()
                .filter_map(|d| layout_attribute(&d.node.declarator.as_ref()?.node.extensions));
            unmodelled = unmodelled.or(specs.chain(decls).next());
            for (name, ty, width) in member(u, fd)? {
                if !name.is_empty() && fields.iter().any(|(n, _)| *n == name) {
                    return Err(Diagnostic::new(
                        u.span(fd.span),
                        format!("the member `{name}` is declared twice"),
                    ));
                }
                fields.push((name, ty));
                widths.push(width);
            }
        }
    }
    if union && fields.len() > 1 {
        u.heap.unions.set(true);
    }
    let mut structs = u.heap.structs.borrow_mut();
    structs[index as usize].fields = Some(fields);
    structs[index as usize].widths = widths;
    structs[index as usize].pack = u.map.pack_at(at.start);
    structs[index as usize].unmodelled = unmodelled.map(|a| format!("{a} on a member"));
    Ok(CType::Struct(index))
}

/// The type a member has in a structure: integers, pointers, mutexes,
/// structures and arrays of constant length of these are laid out in its
/// slots ([`super::layout`]); anything else is kept as an opaque type, an
/// error only where the member is used.
pub fn member_type(ty: CType) -> CType {
    match ty {
        CType::Int(_) | CType::Pointer(_) | CType::Mutex | CType::Opaque(..) | CType::Struct(_) => {
            ty
        }
        CType::Array(elem, Len::Const(n)) => match member_type(*elem) {
            CType::Opaque(what, at) => CType::Opaque(what, at),
            elem => CType::Array(Box::new(elem), Len::Const(n)),
        },
        CType::Array(..) => CType::Opaque(
            "arrays without a constant length inside structures".into(),
            None,
        ),
        CType::Void => CType::Opaque("`void` members".into(), None),
        CType::Func(_) => CType::Opaque("function members".into(), None),
    }
}

/// A description of a structure type for messages.
pub fn struct_name(u: &Unit, i: u32) -> String {
    let (tag, union) = u
        .heap
        .structs
        .borrow()
        .get(i as usize)
        .map_or((None, false), |s| (s.tag.clone(), s.union));
    let kind = if union { "union" } else { "struct" };
    match tag {
        Some(t) => format!("{kind} {t}"),
        None => format!("an anonymous {kind}"),
    }
}

/// The IR type memory holds values of C type `ty` in: pointers and
/// mutexes as `int`; integers by their width, signed, so that `int` and
/// `unsigned` share their memory as `char`, `signed char` and `unsigned
/// char` do (a pointer cast between them reads the same bytes), and an
/// access converts between the two, keeping the bits ([`load_int`],
/// [`store_int`]).
pub fn value_ty(u: &Unit, ty: &CType) -> Option<ScalarTy> {
    match ty {
        CType::Int(i) => Some(ScalarTy::Int(storage(u, *i))),
        CType::Pointer(_) | CType::Mutex => Some(ScalarTy::INT),
        _ => None,
    }
}

/// The IR type memory holds integers of C type `t` in; a float is held
/// as the signed integer of its width (its pattern), so that a `float`
/// and an `int` at one address are the same four bytes.
fn storage(u: &Unit, t: CInt) -> IntTy {
    let bits = t.float().map_or(t.bits(u.dm), |f| f.bits());
    IntTy::fixed(bits, true).unwrap_or(IntTy::I32)
}

/// The integer of C type `t` at `p` in the memory `array` (a read of
/// shared state: see [`super::Fun::shared`]).
pub fn load_int(f: &mut Fun, array: ArrayId, p: Expr, t: CInt, span: wiser_ir::Span) -> Expr {
    let held = storage(f.u, t);
    let v = super::ptr::shared_select(f, array, ScalarTy::Int(held), p, span);
    if let Some(ft) = t.float() {
        return Expr::as_float(v, ft);
    }
    if held == t.ir(f.u.dm) {
        v
    } else {
        v.cast(t.ir(f.u.dm))
    }
}

/// Stores `v`, an integer of C type `t`, at `p` in the memory `array`.
pub fn store_int(f: &mut Fun, array: ArrayId, p: Expr, v: Expr, t: CInt, span: wiser_ir::Span) {
    let held = storage(f.u, t);
    let v = if t.float().is_some() {
        v.as_bits().cast(held)
    } else if held == t.ir(f.u.dm) {
        v
    } else {
        v.cast(held)
    };
    f.rb.store(array, p, v, span);
}

/// Stores `v`, a value of C type `ty` (an integer or a pointer), at `p`
/// in the memory of its type.
pub fn store(f: &mut Fun, ty: &CType, p: Expr, v: Expr, span: wiser_ir::Span) -> Res<()> {
    let (array, _) = cell_array(f, ty, CSpan::none())?;
    match ty {
        CType::Int(t) => store_int(f, array, p, v, *t, span),
        _ => f.rb.store(array, p, v, span),
    }
    Ok(())
}

/// The array type of a field holding values of `elem`.
pub fn field_ty(elem: ScalarTy) -> ArrayTy {
    ArrayTy {
        index: IntTy::INT,
        elem,
    }
}

/// The array type of a `$freed` flag array.
pub const FLAG_TY: ArrayTy = ArrayTy {
    index: IntTy::INT,
    elem: ScalarTy::Bool,
};

/// The class of structure `i`, made on first use: the class of the
/// objects that hold such structures (their members live in the cell
/// arrays, [`super::layout`]).
pub fn class_of(u: &mut Unit, b: &mut Builder, i: u32) -> ClassId {
    if let Some(c) = u.heap.classes.get(&i) {
        return *c;
    }
    let id = b.class(struct_name(u, i));
    u.heap.classes.insert(i, id);
    id
}

/// The class of objects of `ty`'s values: a structure's, a mutex's, or
/// the cell class of an integer or pointer type.
pub fn class_for(u: &mut Unit, b: &mut Builder, ty: &CType) -> ClassId {
    match ty {
        CType::Struct(i) => class_of(u, b, *i),
        CType::Mutex => mutex_class(u, b),
        CType::Array(elem, _) => class_for(u, b, elem),
        other => cell_class(u, b, value_ty(u, other).unwrap_or(ScalarTy::INT)).0,
    }
}

/// The cell class for values of IR type `ty` and its value array (its
/// field `v`): the memory of that type.
pub fn cell_class(u: &mut Unit, b: &mut Builder, ty: ScalarTy) -> (ClassId, ArrayId) {
    if let Some(c) = u.heap.cells.get(&ty) {
        return *c;
    }
    let name = match ty {
        ScalarTy::Int(t) if t == IntTy::INT => "$cell_ptr".to_string(),
        other => format!("$cell_{other}"),
    };
    let id = b.class(name);
    let v = b.field(id, "v", ty, None);
    b.cell_value(id, v);
    u.heap.cells.insert(ty, (id, v));
    (id, v)
}

/// The class of mutexes.
pub fn mutex_class(u: &mut Unit, b: &mut Builder) -> ClassId {
    if let Some(c) = u.heap.mutex {
        return c;
    }
    let id = b.class("$mutex");
    u.heap.mutex = Some(id);
    id
}

/// The memory of `ty`'s values: the value array of its cell class.
pub fn cell_array(f: &mut Fun, ty: &CType, at: CSpan) -> Res<(ArrayId, ScalarTy)> {
    let Some(t) = value_ty(f.u, ty) else {
        return Err(f
            .u
            .unsupported(at, &format!("the address of a {}", ty.describe())));
    };
    Ok((cell_class(f.u, f.rb.program(), t).1, t))
}

/// A pointer `p` checked as every access through a pointer is: not
/// `NULL`, into an object not freed, within its elements
/// ([`pointer::checked`]).
pub fn checked(f: &mut Fun, p: Expr, span: wiser_ir::Span) -> Expr {
    let mem = mem(f.u, f.rb.program());
    pointer::checked(p, mem.freed, mem.len, span)
}

/// Makes a fresh object of `count` elements of type `ty` (an `int`) and
/// stores the pointer to its first element in `place`. Its slots hold
/// any value (the cell arrays are inputs, and no slot of a new object was
/// written before), except with `zero_first`: then the slots of the first
/// element are zeroed (`0`, `NULL`).
pub fn allocate(
    f: &mut Fun,
    place: Place,
    ty: &CType,
    count: Expr,
    zero_first: bool,
    span: wiser_ir::Span,
) {
    let mem = mem(f.u, f.rb.program());
    let class = class_for(f.u, f.rb.program(), ty);
    f.rb.new_object(place, class, span);
    let reference = f.rb.load(place);
    let size = super::layout::slots(f.u, ty);
    let len = if size == 1 {
        count
    } else {
        Expr::binary(
            wiser_num::BinOp::Mul,
            count,
            Expr::int(IntTy::INT, wiser_num::Int::from_u64(size)),
            span,
        )
    };
    f.rb.store(mem.len, reference.clone(), len, span);
    let more = Expr::binary(
        wiser_num::BinOp::Add,
        f.rb.load(mem.count),
        Expr::int(IntTy::INT, 1),
        span,
    );
    f.rb.assign(mem.count, more, span);
    let kind = Expr::int(IntTy::INT, wiser_num::Int::from_u64(kind(f.u, ty, size)));
    f.rb.store(mem.kinds, reference.clone(), kind, span);
    if let Some((bytes, slots)) = mem.elem {
        // An element's size: gcc's where it has one, else a byte a slot.
        let b = super::layout::bytes(f.u, ty).map_or(size, |(b, _)| b);
        let int = |v: u64| Expr::int(IntTy::INT, wiser_num::Int::from_u64(v));
        f.rb.store(bytes, reference.clone(), int(b), span);
        f.rb.store(slots, reference.clone(), int(size), span);
    }
    f.rb.assign(place, pointer::base(reference, span), span);
    if zero_first {
        super::layout::zero(f, ty, f.rb.load(place), true, span);
    }
}
