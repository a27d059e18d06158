"""Variants: a base spec plus the changes of variant files -> one list of spec files.

In:  the parsed files of a base spec and the parsed variant files to apply, in an
     order where each variant comes after the one it extends.
Out: the spec files with every change applied (``compose``), and what each
     variant changed (``Applied``), for ``diff``, the docs and the coverage of
     rule IDs; ``diffing``: what a variant changes, definition by definition.

A variant file starts with ``variant NAME [IDs] "title" extends "PATH"``; PATH is
the base spec directory or another variant file, relative to the variant's own
file. Its items then

* ``override`` a definition of the base by name (the whole definition; a
  switch's default only, ``override switch NAME = value``; a param's value
  keeping its type; one state variable inside ``override state {...}``; one step
  of a scoring, procedure or mode, ``override step OWNER.STEP ...``),
* ``remove`` one (``remove [KIND] NAME``, ``remove step OWNER.STEP``),
* add a step in its place (``add step OWNER.NAME after|before STEP ...``, at the
  end without a place), or a field to a record with its default (``add field
  RECORD.NAME: T = value``: the base's ``new RECORD(...)`` and saved positions
  then give it that value), or a row to a table or a value to an enum (``add row
  TABLE: NAME | value | ...``, after the rows of the table's file),
* or add new definitions (written as in any spec, ``add`` in front optional).

Inside an override of a whole definition, ``base`` names the definition it
replaces: ``override rule legal(a: item, b: item) = base(a, b) and a.owner != b.owner``;
``do base()`` in a procedure. The replaced definition is kept under a name of its
own (``legal__before_VARIANT``), which diff and the docs leave out. Inside an
override of a step, ``do base()`` is replaced by the base step's statements and
``base`` as a value by the points of a step written ``= expression``.

An overridden definition keeps the base's rule IDs and adds the variant's own,
and keeps the base's doc comment unless the variant writes its own.

Two variants applied together that change the same definition, when neither
extends the other, conflict: the error names both changes. A name the base
lacks is an error with a "did you mean".

Modules: ``names`` (the records of changes and the table being edited), ``parts`` (edits
of steps, fields and rows), ``compose`` (the whole composition and the loading order),
``diffing`` (base against variant).
"""
from rulewright.compiler.variants.compose import compose, order, removed_note
from rulewright.compiler.variants.names import KEPT, Applied, ChangeRecord, kept_base, word
from rulewright.compiler.variants.parts import lost_checkpoints

__all__ = ["compose", "order", "removed_note", "Applied", "ChangeRecord", "KEPT", "kept_base", "word",
           "lost_checkpoints"]
