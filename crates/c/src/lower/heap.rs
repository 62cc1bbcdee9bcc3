//! C's objects on the IR's heap. A structure type is a class whose
//! fields are the structure's integer, pointer and mutex members; a
//! pointer is a reference (an IR `int`, 0 for `NULL`). A variable whose
//! address is taken lives in a *cell*: an object of a one-field class
//! `$cell_T` (one class per IR type `T`), so that `&x`, `*p = 3` and
//! `p == &x` are field accesses and reference comparisons like any other,
//! aliasing included. A `pthread_mutex_t` is a reference to an object of
//! the field-less class `$mutex`, whose lock is the object's lock.
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
use crate::types::CType;
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
        if self.exits {
            out.push((ErrorKind::MemoryLeak, "the program can end by `exit` or `abort`, and wiser does not decide whether the objects it allocated are still reachable then".to_string()));
        }
        if self.compares_pointers {
            for kind in [ErrorKind::DoubleFree, ErrorKind::UseAfterFree] {
                out.push((kind, "the program compares pointers, and wiser never gives a freed object's address to a new one as `malloc` may".to_string()));
            }
        }
        out
    }
}

/// A structure type as declared.
#[derive(Clone, Debug)]
pub struct StructDef {
    /// Its tag, if it has one.
    pub tag: Option<String>,
    /// Its members (`None` while only declared: `struct node;`).
    pub fields: Option<Vec<(String, CType)>>,
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
        live: b.global("$live", ScalarTy::INT, zero),
    };
    u.heap.mem = Some(m);
    m
}

/// The class of a structure or cell, once made.
#[derive(Clone, Debug)]
pub struct ClassInfo {
    /// The IR class.
    pub id: ClassId,
    /// Member arrays by name, with the member's C type.
    pub fields: HashMap<String, (ArrayId, CType)>,
}

/// The unit's structures and classes.
#[derive(Default)]
pub struct Heap {
    /// Structures, by index (`CType::Struct(i)`). Declared while types
    /// are read, which happens through shared references to the unit.
    pub structs: RefCell<Vec<StructDef>>,
    /// Structure tags in scope.
    pub tags: RefCell<HashMap<String, u32>>,
    /// Classes of structures, by structure index.
    pub classes: HashMap<u32, ClassInfo>,
    /// Cell classes, by the IR type of their value.
    pub cells: HashMap<ScalarTy, ClassInfo>,
    /// The class of mutexes.
    pub mutex: Option<ClassId>,
    /// Objects the IR's main routine makes, zeroed, before any
    /// initialiser runs (cells, structures, mutexes and arrays of
    /// structures or pointers of globals and static locals), with their
    /// lengths.
    pub startup: Vec<(Place, ClassId, u64)>,
    /// The arrays about objects, once made.
    pub mem: Option<Mem>,
    /// Can a global (or static local) hold a pointer: is a heap object
    /// that no local points to still reachable when `main` returns?
    pub global_pointers: bool,
    /// Does the program compare two pointers, neither `NULL`?
    pub compares_pointers: bool,
    /// Does the program call `exit` or `abort` (which end it with its
    /// locals still pointing to what they point to)?
    pub exits: bool,
}

/// Reads the members one declaration in a structure declares.
pub type Members = dyn Fn(&Unit, &Node<ast::StructField>) -> Res<Vec<(String, CType)>>;

/// The type of a `struct` or `union` specifier, declaring it when it has
/// members. A union is opaque: declaring one (headers do) is harmless,
/// using one is an error.
pub fn struct_type(u: &Unit, st: &ast::StructType, at: CSpan, member: &Members) -> Res<CType> {
    if st.kind.node == ast::StructKind::Union {
        return Ok(CType::Opaque("unions".into(), Some((at.start, at.end))));
    }
    let tag = st.identifier.as_ref().map(|i| i.node.name.clone());
    let Some(decls) = &st.declarations else {
        // A use (or forward declaration) of a tag.
        let Some(tag) = tag else {
            return Err(Diagnostic::new(
                u.span(at),
                "a `struct` without a tag or members",
            ));
        };
        if let Some(i) = u.heap.tags.borrow().get(&tag) {
            return Ok(CType::Struct(*i));
        }
        let mut structs = u.heap.structs.borrow_mut();
        structs.push(StructDef {
            tag: Some(tag.clone()),
            fields: None,
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
            });
            let i = structs.len() as u32 - 1;
            if let Some(t) = &tag {
                u.heap.tags.borrow_mut().insert(t.clone(), i);
            }
            i
        }
    };
    let mut fields = Vec::new();
    for d in decls {
        if let ast::StructDeclaration::Field(fd) = &d.node {
            for (name, ty) in member(u, fd)? {
                if fields.iter().any(|(n, _)| *n == name) {
                    return Err(Diagnostic::new(
                        u.span(fd.span),
                        format!("the member `{name}` is declared twice"),
                    ));
                }
                fields.push((name, ty));
            }
        }
    }
    u.heap.structs.borrow_mut()[index as usize].fields = Some(fields);
    Ok(CType::Struct(index))
}

/// The type a member has in a class: integers, pointers and mutexes are
/// supported; anything else is kept as an opaque type, an error only
/// where the member is used.
pub fn member_type(ty: CType) -> CType {
    match ty {
        CType::Int(_) | CType::Pointer(_) | CType::Mutex | CType::Opaque(..) => ty,
        CType::Array(..) => CType::Opaque("arrays inside structures".into(), None),
        CType::Struct(_) => CType::Opaque("structures nested in structures".into(), None),
        CType::Void => CType::Opaque("`void` members".into(), None),
        CType::Func(_) => CType::Opaque("function members".into(), None),
    }
}

/// A description of a structure type for messages.
pub fn struct_name(u: &Unit, i: u32) -> String {
    match u
        .heap
        .structs
        .borrow()
        .get(i as usize)
        .and_then(|s| s.tag.clone())
    {
        Some(t) => format!("struct {t}"),
        None => "an anonymous struct".into(),
    }
}

/// The IR type of a value of C type `ty` held in a field or a cell.
pub fn value_ty(u: &Unit, ty: &CType) -> Option<ScalarTy> {
    match ty {
        CType::Int(i) => Some(ScalarTy::Int(i.ir(u.dm))),
        CType::Pointer(_) | CType::Mutex => Some(ScalarTy::INT),
        _ => None,
    }
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

/// The class of structure `i`, made on first use.
pub fn class_of(u: &mut Unit, b: &mut Builder, i: u32, at: CSpan) -> Res<ClassInfo> {
    if let Some(c) = u.heap.classes.get(&i) {
        return Ok(c.clone());
    }
    let def = u.heap.structs.borrow()[i as usize].clone();
    let name = struct_name(u, i);
    // A structure declared and never defined (`struct L5 *down;`): a
    // valid program only passes pointers to it around (C refuses its
    // members and its size), so its class has no members.
    let _ = at;
    let fields = def.fields.unwrap_or_default();
    let id = b.class(name);
    // Registered before the members: a member may point to this class.
    u.heap.classes.insert(
        i,
        ClassInfo {
            id,
            fields: HashMap::new(),
        },
    );
    let mut map = HashMap::new();
    for (fname, fty) in fields {
        let Some(elem) = value_ty(u, &fty) else {
            map.insert(fname, (ArrayId(u32::MAX), fty));
            continue;
        };
        let refers = match &fty {
            CType::Pointer(p) => match &**p {
                CType::Struct(j) => Some(class_of(u, b, *j, at)?.id),
                other => value_ty(u, other).map(|t| cell_class(u, b, t).id),
            },
            CType::Mutex => Some(mutex_class(u, b)),
            _ => None,
        };
        let array = b.field(id, fname.clone(), elem, refers);
        map.insert(fname, (array, fty));
    }
    let info = u.heap.classes.get_mut(&i).expect("registered above");
    info.fields = map;
    Ok(info.clone())
}

/// The cell class for values of IR type `ty` (its value field is `v`).
pub fn cell_class(u: &mut Unit, b: &mut Builder, ty: ScalarTy) -> ClassInfo {
    if let Some(c) = u.heap.cells.get(&ty) {
        return c.clone();
    }
    let name = match ty {
        ScalarTy::Int(t) if t == IntTy::INT => "$cell_ptr".to_string(),
        other => format!("$cell_{other}"),
    };
    let id = b.class(name);
    let v = b.field(id, "v", ty, None);
    b.cell_value(id, v);
    let mut fields = HashMap::new();
    // The C type of a cell's value is the variable's; the map is keyed
    // by the one member.
    fields.insert("v".to_string(), (v, CType::Void));
    let info = ClassInfo { id, fields };
    u.heap.cells.insert(ty, info.clone());
    info
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

/// The value array of the cell class for `ty`.
pub fn cell_array(f: &mut Fun, ty: &CType, at: CSpan) -> Res<(ArrayId, ScalarTy)> {
    let Some(t) = value_ty(f.u, ty) else {
        return Err(f
            .u
            .unsupported(at, &format!("the address of a {}", ty.describe())));
    };
    let c = cell_class(f.u, f.rb.program(), t);
    Ok((c.fields["v"].0, t))
}

/// A pointer `p` checked as every access through a pointer is: not
/// `NULL`, into an object not freed, within its elements
/// ([`pointer::checked`]).
pub fn checked(f: &mut Fun, p: Expr, span: wiser_ir::Span) -> Expr {
    let mem = mem(f.u, f.rb.program());
    pointer::checked(p, mem.freed, mem.len, span)
}

/// Makes a fresh object of `class` with `len` elements (an `int`) and
/// stores the pointer to its first element in `place`. Its elements hold
/// any value (the member arrays are inputs, and no index of a new object
/// was written before), except with `zero_first`: then the members of the
/// first element are zeroed (`NULL` pointers), as the IR's `New` does for
/// the object's reference (the pointer is the reference times the stride,
/// [`pointer::base`], another index).
pub fn allocate(
    f: &mut Fun,
    place: Place,
    class: ClassId,
    len: Expr,
    zero_first: bool,
    span: wiser_ir::Span,
) {
    let mem = mem(f.u, f.rb.program());
    f.rb.new_object(place, class, span);
    let reference = f.rb.load(place);
    f.rb.store(mem.len, reference.clone(), len, span);
    f.rb.assign(place, pointer::base(reference, span), span);
    if zero_first {
        zero_element(f, class, f.rb.load(place), span);
    }
}

/// Zeroes the members of the element `p` points to (`NULL` for
/// pointers, `false` for flags), as `calloc` does.
pub fn zero_element(f: &mut Fun, class: ClassId, p: Expr, span: wiser_ir::Span) {
    let arrays: Vec<ArrayId> = f.rb.program().classes()[class.0 as usize]
        .fields
        .iter()
        .map(|field| field.array)
        .collect();
    for array in arrays {
        let zero = match f.rb.program().array_ty(array).elem {
            ScalarTy::Bool => Expr::bool(false),
            ScalarTy::Int(t) => Expr::int(t, 0),
        };
        f.rb.store(array, p.clone(), zero, span);
    }
}
