;; The hot loop of the parallel JSONL reader, as WebAssembly: lines that
;; match the line template the JavaScript scanner learned (DecisionScan in
;; _decision_scan.ts) are read here, their decision keys hashed into a log
;; and their cells counted, with no work in JavaScript per line. A line
;; that does not match, or whose cell is new, goes back to JavaScript.
;;
;; It knows no field by name: each slot of the template comes with an op
;; that the scanner derives from the field's rule in the Decision schema
;; (WASM_OPS: the kind of value, whether null is a value, the vocabulary),
;; each field's value is kept in the field arrays by its place in the
;; schema, the fields the statistics read are found through ROLES, and the
;; rules that tie a null to another field's value (the cost's amount) come
;; as a table (WHEN). A field added to the schema is read with no change
;; here.
;;
;; This is the source of the bytes in _scan_wasm_bytes.ts, which
;; scripts/build_wasm.ts writes with wabt; a test rebuilds it and
;; compares. Every check mirrors DecisionScan.matchAt, and a property test
;; compares the two line by line.
;;
;; Memory (byte addresses):
;;   0x0000 STOP table: 1 for '"', 2 for '\\', controls and bytes >= 128
;;   0x0100 OUT: the reader's state
;;   0x0200 POW10: 10^0 .. 10^22 as f64
;;   0x0300 template: litStart[k] (i32), 0x0400 op[k] (i32),
;;   0x0500 literal bytes (up to 0x1000)
;;   0x1000 vocabularies: 256 bytes each: count, then (length, address)
;;   0x1800 vocabulary bytes
;;   0x2000 the first runId of the segment (up to 1 KiB)
;;   0x2400 cell slots (4096 i32: cell + 1), 0x6400 slot hashes
;;   0xA400 cells (2048 x 56 bytes: code, key address, model, gold and
;;     predicted lengths (i32), the carries of the 1 - pCorrect sum (i32),
;;     n (f64), the sum of 1 - pCorrect in units of 2^-53 modulo 2^64
;;     (i64), pMissing and parseFailures (f64)), 0x26400 cell key bytes
;;     (64 KiB)
;;   0x36400 ROLES: the fields the statistics read (16 i32): 0 run, 1
;;     model, 2 task, 3 gold, 4 predicted, 5 trial, 6 severity, 7 action,
;;     8 parseOk, 9 pCorrect
;;   0x36440 WHEN rules (up to 16): field, column, mask of the column's
;;     codes for which the field is null
;;   0x36800 the fields of the line, by their place in the schema (up to
;;     64): SPAN (start, end of a string's text), 0x36A00 CODE (an enum's
;;     word, a boolean), 0x36B00 STATE (0 absent, 1 null, 2 a value),
;;     0x36C00 NUM (f64)
;;   LOG_BASE (OUT) key log: h1, h2 (i32) a line
;;   above it the read buffer, placed by JavaScript (at the end of a
;;   segment, partition() writes the sorted key log there)
(module
  (memory (export "memory") 32)

  ;; OUT fields
  (global $POS i32 (i32.const 0x100))
  (global $LINES i32 (i32.const 0x104))
  (global $REPEATED i32 (i32.const 0x108))
  (global $CELLS i32 (i32.const 0x10C))
  (global $LOG_COUNT i32 (i32.const 0x110))
  (global $LOG_CAP i32 (i32.const 0x114))
  (global $LOG_BASE i32 (i32.const 0x118))
  (global $FIRST_LEN i32 (i32.const 0x11C))
  (global $CELL_HASH i32 (i32.const 0x154))
  (global $SLOTS i32 (i32.const 0x17C))
  (global $MISS_SLOT i32 (i32.const 0x180))
  (global $KEY_USED i32 (i32.const 0x184))
  (global $WHEN_COUNT i32 (i32.const 0x188))

  (global $POW10 i32 (i32.const 0x200))
  (global $LIT_START i32 (i32.const 0x300))
  (global $OPS i32 (i32.const 0x400))
  (global $VOCAB i32 (i32.const 0x1000))
  (global $FIRST_RUN i32 (i32.const 0x2000))
  (global $SLOT_CELL i32 (i32.const 0x2400))
  (global $SLOT_HASH i32 (i32.const 0x6400))
  (global $CELL_BASE i32 (i32.const 0xA400))
  (global $KEY_BASE i32 (i32.const 0x26400))
  (global $KEY_END i32 (i32.const 0x36400))
  (global $ROLES i32 (i32.const 0x36400))
  (global $WHEN i32 (i32.const 0x36440))
  (global $SPAN i32 (i32.const 0x36800))
  (global $CODE i32 (i32.const 0x36A00))
  (global $STATE i32 (i32.const 0x36B00))
  (global $NUM i32 (i32.const 0x36C00))

  ;; roles (see ROLES)
  (global $R_TRIAL i32 (i32.const 5))
  (global $R_SEVERITY i32 (i32.const 6))
  (global $R_ACTION i32 (i32.const 7))
  (global $R_PARSE_OK i32 (i32.const 8))
  (global $R_P i32 (i32.const 9))

  ;; the value of the last number read
  (global $num (mut f64) (f64.const 0))

  ;; statuses of run()
  ;; 0: every finished line read; 1: the line at POS is JavaScript's;
  ;; 2: the line at POS has a new cell (spans in OUT); 3: the log is full

  (func $ld (param $a i32) (result i32) (i32.load (local.get $a)))
  (func $st (param $a i32) (param $v i32) (i32.store (local.get $a) (local.get $v)))

  (func $digit (param $c i32) (result i32)
    (i32.lt_u (i32.sub (local.get $c) (i32.const 48)) (i32.const 10)))

  ;; the quote that ends a string's text at i, or -1 (an escape, a
  ;; control or non-ASCII byte, or no quote before limit): 16 bytes at a
  ;; time (the buffer has room for the loads after it), each tested for
  ;; '"', a backslash, a control (< 32) or a byte >= 128, as the STOP
  ;; table says
  (func $text (param $i i32) (param $limit i32) (result i32)
    (local $v v128) (local $m i32) (local $t i32)
    (loop $l
      (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
      (local.set $v (v128.load (local.get $i)))
      (local.set $m (i8x16.bitmask
        (v128.or
          (v128.or (i8x16.eq (local.get $v) (i8x16.splat (i32.const 34)))
                   (i8x16.eq (local.get $v) (i8x16.splat (i32.const 92))))
          (v128.or (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 32)))
                   (i8x16.lt_s (local.get $v) (i8x16.splat (i32.const 0)))))))
      (if (i32.eqz (local.get $m))
        (then (local.set $i (i32.add (local.get $i) (i32.const 16))) (br $l))))
    (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $m))))
    (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
    (local.set $t (i32.load8_u (i32.load8_u (local.get $i))))
    (if (result i32) (i32.eq (local.get $t) (i32.const 1))
      (then (local.get $i)) (else (i32.const -1))))

  ;; whether the n bytes at a equal the n bytes at b: 16 at a time, the
  ;; last ones by one compare of 16 whose bytes past n are masked out (both
  ;; places have 16 readable bytes after them)
  (func $eqn (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $need i32)
    (block $done
      (loop $l
        (br_if $done (i32.lt_u (local.get $n) (i32.const 16)))
        (if (v128.any_true (v128.xor (v128.load (local.get $a)) (v128.load (local.get $b))))
          (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (local.set $n (i32.sub (local.get $n) (i32.const 16)))
        (br $l)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const 1))))
    (local.set $need (i32.sub (i32.shl (i32.const 1) (local.get $n)) (i32.const 1)))
    (i32.eq
      (i32.and (i8x16.bitmask (i8x16.eq (v128.load (local.get $a)) (v128.load (local.get $b))))
               (local.get $need))
      (local.get $need)))

  ;; whether bytes [s, e) equal the n bytes at w
  (func $same (param $s i32) (param $e i32) (param $w i32) (param $n i32) (result i32)
    (if (i32.ne (i32.sub (local.get $e) (local.get $s)) (local.get $n))
      (then (return (i32.const 0))))
    (call $eqn (local.get $s) (local.get $w) (local.get $n)))

  ;; the index of [s, e) in vocabulary v, or -1
  (func $word (param $v i32) (param $s i32) (param $e i32) (result i32)
    (local $base i32) (local $n i32) (local $k i32) (local $at i32)
    (local.set $base (i32.add (global.get $VOCAB) (i32.shl (local.get $v) (i32.const 8))))
    (local.set $n (i32.load (local.get $base)))
    (block $miss
      (loop $l
        (br_if $miss (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $at (i32.add (local.get $base) (i32.add (i32.const 4) (i32.shl (local.get $k) (i32.const 3)))))
        (if (call $same (local.get $s) (local.get $e)
              (i32.load offset=4 (local.get $at)) (i32.load (local.get $at)))
          (then (return (local.get $k))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $l)))
    (i32.const -1))

  ;; whether the len bytes at w follow at i (before limit)
  (func $lit (param $i i32) (param $limit i32) (param $w i32) (param $n i32) (result i32)
    (if (i32.gt_u (i32.add (local.get $i) (local.get $n)) (local.get $limit))
      (then (return (i32.const 0))))
    (call $same (local.get $i) (i32.add (local.get $i) (local.get $n)) (local.get $w) (local.get $n)))

  ;; A JSON number at i into $num: the index after it, or -1 (not a
  ;; number, or outside the exact fast path: more than 15 significant
  ;; digits, or a decimal exponent beyond 22), as DecisionScan's #number.
  (func $number (param $i i32) (param $end i32) (result i32)
    (local $neg i32) (local $m f64) (local $digits i32) (local $c i32)
    (local $exp i32) (local $f i32) (local $e i32) (local $eneg i32) (local $v f64)
    (if (i32.and (i32.lt_u (local.get $i) (local.get $end))
                 (i32.eq (i32.load8_u (local.get $i)) (i32.const 45)))
      (then (local.set $neg (i32.const 1)) (local.set $i (i32.add (local.get $i) (i32.const 1)))))
    (if (i32.ge_u (local.get $i) (local.get $end)) (then (return (i32.const -1))))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 48))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (if (i32.lt_u (local.get $i) (local.get $end))
          (then (if (call $digit (i32.load8_u (local.get $i))) (then (return (i32.const -1)))))))
      (else
        (if (i32.lt_u (i32.sub (local.get $c) (i32.const 49)) (i32.const 9))
          (then
            (block $done
              (loop $l
                (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $done (i32.eqz (call $digit (local.get $c))))
                (local.set $m (f64.add (f64.mul (local.get $m) (f64.const 10))
                                       (f64.convert_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $l))))
          (else (return (i32.const -1))))))
    ;; a fraction
    (if (i32.and (i32.lt_u (local.get $i) (local.get $end))
                 (i32.eq (i32.load8_u (local.get $i)) (i32.const 46)))
      (then
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $f (local.get $i))
        (block $done
          (loop $l
            (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
            (local.set $c (i32.load8_u (local.get $i)))
            (br_if $done (i32.eqz (call $digit (local.get $c))))
            (if (i32.or (f64.ne (local.get $m) (f64.const 0)) (i32.ne (local.get $c) (i32.const 48)))
              (then
                (local.set $m (f64.add (f64.mul (local.get $m) (f64.const 10))
                                       (f64.convert_i32_u (i32.sub (local.get $c) (i32.const 48)))))
                (local.set $digits (i32.add (local.get $digits) (i32.const 1)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $l)))
        (if (i32.eq (local.get $i) (local.get $f)) (then (return (i32.const -1))))
        (local.set $exp (i32.sub (local.get $exp) (i32.sub (local.get $i) (local.get $f))))))
    ;; an exponent
    (if (i32.lt_u (local.get $i) (local.get $end))
      (then
        (local.set $c (i32.load8_u (local.get $i)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 101)) (i32.eq (local.get $c) (i32.const 69)))
          (then
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (if (i32.lt_u (local.get $i) (local.get $end))
              (then
                (local.set $c (i32.load8_u (local.get $i)))
                (if (i32.or (i32.eq (local.get $c) (i32.const 43)) (i32.eq (local.get $c) (i32.const 45)))
                  (then
                    (local.set $eneg (i32.eq (local.get $c) (i32.const 45)))
                    (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
            (local.set $f (local.get $i))
            (block $done
              (loop $l
                (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
                (local.set $c (i32.load8_u (local.get $i)))
                (br_if $done (i32.eqz (call $digit (local.get $c))))
                (if (i32.lt_s (local.get $e) (i32.const 10000))
                  (then (local.set $e (i32.add (i32.mul (local.get $e) (i32.const 10))
                                               (i32.sub (local.get $c) (i32.const 48))))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $l)))
            (if (i32.eq (local.get $i) (local.get $f)) (then (return (i32.const -1))))
            (local.set $exp (i32.add (local.get $exp)
              (select (i32.sub (i32.const 0) (local.get $e)) (local.get $e) (local.get $eneg))))))))
    (if (i32.gt_s (local.get $digits) (i32.const 15)) (then (return (i32.const -1))))
    (if (f64.eq (local.get $m) (f64.const 0))
      (then (local.set $v (f64.const 0)))
      (else
        (if (i32.and (i32.ge_s (local.get $exp) (i32.const 0)) (i32.le_s (local.get $exp) (i32.const 22)))
          (then (local.set $v (f64.mul (local.get $m)
            (f64.load (i32.add (global.get $POW10) (i32.shl (local.get $exp) (i32.const 3)))))))
          (else
            (if (i32.and (i32.lt_s (local.get $exp) (i32.const 0)) (i32.ge_s (local.get $exp) (i32.const -22)))
              (then (local.set $v (f64.div (local.get $m)
                (f64.load (i32.add (global.get $POW10)
                  (i32.shl (i32.sub (i32.const 0) (local.get $exp)) (i32.const 3)))))))
              (else (return (i32.const -1))))))))
    (global.set $num (select (f64.neg (local.get $v)) (local.get $v) (local.get $neg)))
    (local.get $i))

  ;; whether the number read last is a whole one within 2^53 (a safe
  ;; integer)
  (func $whole (result i32)
    (i32.and (f64.eq (f64.trunc (global.get $num)) (global.get $num))
             (f64.le (f64.abs (global.get $num)) (f64.const 9007199254740991))))

  ;; the literal null at i: the index after it, or -1
  (func $null (param $i i32) (param $end i32) (result i32)
    (if (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $end)) (then (return (i32.const -1))))
    (if (result i32) (i32.eq (i32.load (local.get $i)) (i32.const 0x6c6c756e)) ;; "null"
      (then (i32.add (local.get $i) (i32.const 4))) (else (i32.const -1))))

  ;; a field's places: its span, code, state and number
  (func $spanOf (param $f i32) (result i32)
    (i32.add (global.get $SPAN) (i32.shl (local.get $f) (i32.const 3))))
  (func $codeAt (param $f i32) (result i32)
    (i32.add (global.get $CODE) (i32.shl (local.get $f) (i32.const 2))))
  (func $stateAt (param $f i32) (result i32)
    (i32.add (global.get $STATE) (i32.shl (local.get $f) (i32.const 2))))
  (func $numAt (param $f i32) (result i32)
    (i32.add (global.get $NUM) (i32.shl (local.get $f) (i32.const 3))))
  ;; the field of role r
  (func $role (param $r i32) (result i32)
    (i32.load (i32.add (global.get $ROLES) (i32.shl (local.get $r) (i32.const 2)))))

  ;; The text [s, q) of a string for the op's field, by its kind (0 an
  ;; id: not empty; 1 text; 2 an enum, 3 a pCorrect source: a word of the
  ;; op's vocabulary, whose index is kept): whether it is a value of the
  ;; field (its span is kept).
  (func $string (param $op i32) (param $s i32) (param $q i32) (result i32)
    (local $f i32) (local $kind i32) (local $v i32)
    (local.set $f (i32.shr_u (local.get $op) (i32.const 16)))
    (local.set $kind (i32.and (local.get $op) (i32.const 15)))
    (call $st (call $spanOf (local.get $f)) (local.get $s))
    (i32.store offset=4 (call $spanOf (local.get $f)) (local.get $q))
    (call $st (call $stateAt (local.get $f)) (i32.const 2))
    (if (i32.eqz (local.get $kind))
      (then (return (i32.ne (local.get $s) (local.get $q)))))
    (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (i32.const 1))))
    (local.set $v (call $word (i32.and (i32.shr_u (local.get $op) (i32.const 8)) (i32.const 255))
                    (local.get $s) (local.get $q)))
    (call $st (call $codeAt (local.get $f)) (local.get $v))
    (i32.ge_s (local.get $v) (i32.const 0)))

  ;; A line starts: the fields of the WHEN rules are absent, their columns
  ;; hold no word.
  (func $whenReset
    (local $r i32) (local $at i32)
    (block $done
      (loop $l
        (br_if $done (i32.ge_u (local.get $r) (call $ld (global.get $WHEN_COUNT))))
        (local.set $at (i32.add (global.get $WHEN) (i32.mul (local.get $r) (i32.const 12))))
        (call $st (call $stateAt (i32.load (local.get $at))) (i32.const 0))
        (call $st (call $codeAt (i32.load offset=4 (local.get $at))) (i32.const -1))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $l))))

  ;; Whether each WHEN rule holds: a field the line has is null exactly
  ;; when its column holds one of the rule's words.
  (func $whenOk (result i32)
    (local $r i32) (local $at i32) (local $state i32) (local $c i32) (local $must i32)
    (block $done
      (loop $l
        (br_if $done (i32.ge_u (local.get $r) (call $ld (global.get $WHEN_COUNT))))
        (local.set $at (i32.add (global.get $WHEN) (i32.mul (local.get $r) (i32.const 12))))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (local.set $state (call $ld (call $stateAt (i32.load (local.get $at)))))
        (br_if $l (i32.eqz (local.get $state)))
        (local.set $c (call $ld (call $codeAt (i32.load offset=4 (local.get $at)))))
        (local.set $must
          (i32.and (i32.ge_s (local.get $c) (i32.const 0))
                   (i32.and (i32.shr_u (i32.load offset=8 (local.get $at)) (local.get $c)) (i32.const 1))))
        (if (i32.ne (i32.eq (local.get $state) (i32.const 1)) (local.get $must))
          (then (return (i32.const 0))))
        (br $l)))
    (i32.const 1))

  ;; Match the template at b, reading no further than limit: the index
  ;; after the line's last byte when it matches (fields kept), else -1.
  ;; Mirrors DecisionScan.matchAt. A slot's op (WASM_OPS): bits 0-3 the
  ;; kind (0 id, 1 text, 2 enum, 3 pCorrect source, 4 count, 5 amount, 6
  ;; probability, 7 boolean), bit 4 null is a value, bit 5 the slot is a
  ;; string's text between the literals' quotes, bits 8-15 the vocabulary,
  ;; bits 16 and up the field.
  (func $match (param $b i32) (param $limit i32) (result i32)
    (local $i i32) (local $k i32) (local $slots i32) (local $l i32) (local $l1 i32)
    (local $op i32) (local $kind i32) (local $f i32) (local $s i32) (local $q i32) (local $n i32)
    (local.set $slots (call $ld (global.get $SLOTS)))
    (if (i32.eqz (local.get $slots)) (then (return (i32.const -1))))
    (call $whenReset)
    (local.set $i (local.get $b))
    (loop $slot
      ;; literal k
      (local.set $l (call $ld (i32.add (global.get $LIT_START) (i32.shl (local.get $k) (i32.const 2)))))
      (local.set $l1 (call $ld (i32.add (global.get $LIT_START) (i32.shl (i32.add (local.get $k) (i32.const 1)) (i32.const 2)))))
      (local.set $n (i32.sub (local.get $l1) (local.get $l)))
      (if (i32.eqz (call $lit (local.get $i) (local.get $limit) (i32.add (i32.const 0x500) (local.get $l)) (local.get $n)))
        (then (return (i32.const -1))))
      (local.set $i (i32.add (local.get $i) (local.get $n)))
      (if (i32.eq (local.get $k) (local.get $slots))
        (then (return (select (local.get $i) (i32.const -1) (call $whenOk)))))
      (local.set $op (call $ld (i32.add (global.get $OPS) (i32.shl (local.get $k) (i32.const 2)))))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (local.set $f (i32.shr_u (local.get $op) (i32.const 16)))
      (local.set $kind (i32.and (local.get $op) (i32.const 15)))
      (if (i32.and (local.get $op) (i32.const 32))
        (then
          ;; text up to the quote that starts the next literal
          (local.set $s (local.get $i))
          (local.set $i (call $text (local.get $i) (local.get $limit)))
          (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
          (if (i32.eqz (call $string (local.get $op) (local.get $s) (local.get $i)))
            (then (return (i32.const -1))))
          (br $slot)))
      (if (i32.ge_u (local.get $i) (local.get $limit)) (then (return (i32.const -1))))
      ;; null, where the field has it as a value
      (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 110))
        (then
          (if (i32.eqz (i32.and (local.get $op) (i32.const 16))) (then (return (i32.const -1))))
          (local.set $i (call $null (local.get $i) (local.get $limit)))
          (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
          (call $st (call $stateAt (local.get $f)) (i32.const 1))
          (br $slot)))
      ;; a string, quotes and all
      (if (i32.lt_u (local.get $kind) (i32.const 4))
        (then
          (if (i32.ne (i32.load8_u (local.get $i)) (i32.const 34)) (then (return (i32.const -1))))
          (local.set $s (i32.add (local.get $i) (i32.const 1)))
          (local.set $q (call $text (local.get $s) (local.get $limit)))
          (if (i32.lt_s (local.get $q) (i32.const 0)) (then (return (i32.const -1))))
          (if (i32.eqz (call $string (local.get $op) (local.get $s) (local.get $q)))
            (then (return (i32.const -1))))
          (local.set $i (i32.add (local.get $q) (i32.const 1)))
          (br $slot)))
      (call $st (call $stateAt (local.get $f)) (i32.const 2))
      ;; 7 a boolean: true or false
      (if (i32.eq (local.get $kind) (i32.const 7))
        (then
          (if (i32.le_u (i32.add (local.get $i) (i32.const 4)) (local.get $limit))
            (then
              (if (i32.eq (i32.load (local.get $i)) (i32.const 0x65757274)) ;; "true"
                (then
                  (call $st (call $codeAt (local.get $f)) (i32.const 1))
                  (local.set $i (i32.add (local.get $i) (i32.const 4)))
                  (br $slot)))))
          (if (i32.le_u (i32.add (local.get $i) (i32.const 5)) (local.get $limit))
            (then
              (if (i32.and (i32.eq (i32.load (local.get $i)) (i32.const 0x736c6166)) ;; "fals"
                           (i32.eq (i32.load8_u offset=4 (local.get $i)) (i32.const 101)))
                (then
                  (call $st (call $codeAt (local.get $f)) (i32.const 0))
                  (local.set $i (i32.add (local.get $i) (i32.const 5)))
                  (br $slot)))))
          (return (i32.const -1))))
      ;; a number >= 0: 4 a whole one, 5 an amount, 6 a probability (<= 1)
      (local.set $i (call $number (local.get $i) (local.get $limit)))
      (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
      (if (i32.eqz (f64.ge (global.get $num) (f64.const 0))) (then (return (i32.const -1))))
      (if (i32.eq (local.get $kind) (i32.const 4))
        (then (if (i32.eqz (call $whole)) (then (return (i32.const -1))))))
      (if (i32.eq (local.get $kind) (i32.const 6))
        (then (if (f64.gt (global.get $num) (f64.const 1)) (then (return (i32.const -1))))))
      (f64.store (call $numAt (local.get $f)) (global.get $num))
      (br $slot))
    (i32.const -1))

  ;; murmur3's block step on one 32-bit word into h
  (func $mix (param $h i32) (param $k i32) (result i32)
    (i32.add (i32.mul (i32.rotl (i32.xor (local.get $h) (local.get $k)) (i32.const 13)) (i32.const 5))
             (i32.const 0xe6546b64)))
  (func $scramble (param $k i32) (result i32)
    (i32.mul (i32.rotl (i32.mul (local.get $k) (i32.const 0xcc9e2d51)) (i32.const 15)) (i32.const 0x1b873593)))
  (func $fmix (param $h i32) (result i32)
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0x85ebca6b)))
    (local.set $h (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 13))))
    (local.set $h (i32.mul (local.get $h) (i32.const 0xc2b2ae35)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 16))))

  ;; the text of role part (0 run, 1 model, 2 task, 3 gold, 4 predicted):
  ;; its start and end; the code, number and state of role r
  (func $span (param $part i32) (result i32)
    (i32.load (call $spanOf (call $role (local.get $part)))))
  (func $spanEnd (param $part i32) (result i32)
    (i32.load offset=4 (call $spanOf (call $role (local.get $part)))))
  (func $roleCode (param $r i32) (result i32)
    (i32.load (call $codeAt (call $role (local.get $r)))))
  (func $roleNum (param $r i32) (result f64)
    (f64.load (call $numAt (call $role (local.get $r)))))
  (func $roleState (param $r i32) (result i32)
    (i32.load (call $stateAt (call $role (local.get $r)))))
  ;; a cell's code: severity and action
  (func $cellCode (result i32)
    (i32.or (i32.shl (call $roleCode (global.get $R_SEVERITY)) (i32.const 8))
            (call $roleCode (global.get $R_ACTION))))

  ;; KeyHasher.ofBytes on the run, model and task spans and the trial:
  ;; into the globals h1 and h2
  (global $h1 (mut i32) (i32.const 0))
  (global $h2 (mut i32) (i32.const 0))
  (func $hashKey
    (local $part i32) (local $s i32) (local $e i32) (local $i i32) (local $k i32)
    (local $shift i32) (local $h1 i32) (local $h2 i32) (local $t i64) (local $lo i32) (local $hi i32)
    (local.set $h1 (i32.const 0x9747b28c))
    (local.set $h2 (i32.const 0x2545f491))
    (loop $parts
      (local.set $s (call $span (local.get $part)))
      (local.set $e (call $spanEnd (local.get $part)))
      (local.set $i (local.get $s))
      (block $done
        (loop $l
          (br_if $done (i32.gt_u (i32.add (local.get $i) (i32.const 4)) (local.get $e)))
          (local.set $k (call $scramble (i32.load (local.get $i))))
          (local.set $h1 (call $mix (local.get $h1) (local.get $k)))
          (local.set $h2 (call $mix (local.get $h2) (local.get $k)))
          (local.set $i (i32.add (local.get $i) (i32.const 4)))
          (br $l)))
      (local.set $k (i32.sub (local.get $e) (local.get $s)))
      (local.set $shift (i32.const 8))
      (block $done2
        (loop $l2
          (br_if $done2 (i32.ge_u (local.get $i) (local.get $e)))
          (local.set $k (i32.xor (local.get $k) (i32.shl (i32.load8_u (local.get $i)) (local.get $shift))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (local.set $shift (i32.add (local.get $shift) (i32.const 8)))
          (br $l2)))
      (local.set $k (call $scramble (local.get $k)))
      (local.set $h1 (call $mix (local.get $h1) (local.get $k)))
      (local.set $h2 (call $mix (local.get $h2) (local.get $k)))
      (local.set $part (i32.add (local.get $part) (i32.const 1)))
      (br_if $parts (i32.lt_u (local.get $part) (i32.const 3))))
    (local.set $t (i64.trunc_f64_u (call $roleNum (global.get $R_TRIAL))))
    (local.set $lo (i32.wrap_i64 (local.get $t)))
    (local.set $hi (i32.wrap_i64 (i64.shr_u (local.get $t) (i64.const 32))))
    (local.set $h1 (i32.mul (i32.xor (local.get $h1) (local.get $lo)) (i32.const 0x5bd1e995)))
    (local.set $h1 (i32.mul (i32.xor (local.get $h1) (local.get $hi)) (i32.const 0x5bd1e995)))
    (local.set $h2 (i32.mul (i32.xor (local.get $h2) (local.get $lo)) (i32.const 0x27d4eb2d)))
    (local.set $h2 (i32.mul (i32.xor (local.get $h2) (local.get $hi)) (i32.const 0x27d4eb2d)))
    (global.set $h1 (call $fmix (local.get $h1)))
    (global.set $h2 (call $fmix (i32.xor (local.get $h2) (i32.const 0x85ebca6b)))))

  ;; FNV-1a over the model, gold and predicted class with the code
  (func $cellHash (param $code i32) (result i32)
    (local $h i32) (local $part i32) (local $i i32) (local $e i32)
    (local.set $h (i32.mul (i32.xor (i32.const 0x811c9dc5) (local.get $code)) (i32.const 0x01000193)))
    (local.set $part (i32.const 1))
    (loop $parts
      (local.set $i (call $span (local.get $part)))
      (local.set $e (call $spanEnd (local.get $part)))
      (block $done
        (loop $l
          (br_if $done (i32.ge_u (local.get $i) (local.get $e)))
          (local.set $h (i32.mul (i32.xor (local.get $h) (i32.load8_u (local.get $i))) (i32.const 0x01000193)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $l)))
      (local.set $h (i32.mul (local.get $h) (i32.const 0x01000193)))
      ;; parts 1 (model), 3 (gold), 4 (predicted)
      (local.set $part (select (i32.const 3) (i32.add (local.get $part) (i32.const 1))
                               (i32.eq (local.get $part) (i32.const 1))))
      (br_if $parts (i32.le_u (local.get $part) (i32.const 4))))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))))


  ;; the cell of the current line, or -1 (then MISS_SLOT and CELL_HASH say
  ;; where addCell puts it)
  (func $cellOf (result i32)
    (local $code i32) (local $h i32) (local $i i32) (local $slot i32) (local $c i32)
    (local $key i32) (local $m i32) (local $t i32) (local $p i32)
    (local.set $code (call $cellCode))
    (local.set $h (call $cellHash (local.get $code)))
    (local.set $i (i32.and (local.get $h) (i32.const 4095)))
    (local.set $m (i32.sub (call $spanEnd (i32.const 1)) (call $span (i32.const 1))))
    (local.set $t (i32.sub (call $spanEnd (i32.const 3)) (call $span (i32.const 3))))
    (local.set $p (i32.sub (call $spanEnd (i32.const 4)) (call $span (i32.const 4))))
    (loop $probe
      (local.set $slot (i32.load (i32.add (global.get $SLOT_CELL) (i32.shl (local.get $i) (i32.const 2)))))
      (if (i32.eqz (local.get $slot))
        (then
          (call $st (global.get $MISS_SLOT) (local.get $i))
          (call $st (global.get $CELL_HASH) (local.get $h))
          (return (i32.const -1))))
      (local.set $c (i32.add (global.get $CELL_BASE) (i32.mul (i32.sub (local.get $slot) (i32.const 1)) (i32.const 56))))
      (if (i32.and
            (i32.eq (i32.load (i32.add (global.get $SLOT_HASH) (i32.shl (local.get $i) (i32.const 2)))) (local.get $h))
            (i32.and
              (i32.eq (i32.load (local.get $c)) (local.get $code))
              (i32.and (i32.eq (i32.load offset=8 (local.get $c)) (local.get $m))
                (i32.and (i32.eq (i32.load offset=12 (local.get $c)) (local.get $t))
                         (i32.eq (i32.load offset=16 (local.get $c)) (local.get $p))))))
        (then
          (local.set $key (i32.load offset=4 (local.get $c)))
          (if (i32.and
                (call $same (call $span (i32.const 1)) (call $spanEnd (i32.const 1)) (local.get $key) (local.get $m))
                (i32.and
                  (call $same (call $span (i32.const 3)) (call $spanEnd (i32.const 3))
                    (i32.add (local.get $key) (local.get $m)) (local.get $t))
                  (call $same (call $span (i32.const 4)) (call $spanEnd (i32.const 4))
                    (i32.add (local.get $key) (i32.add (local.get $m) (local.get $t))) (local.get $p))))
            (then (return (i32.sub (local.get $slot) (i32.const 1)))))))
      (local.set $i (i32.and (i32.add (local.get $i) (i32.const 1)) (i32.const 4095)))
      (br $probe))
    (i32.const -1))

  ;; Add the cell of the line run() last stopped at with status 2 (its
  ;; spans are in OUT), as cell number CELLS; 0 when the table is full.
  (func (export "addCell") (result i32)
    (local $n i32) (local $c i32) (local $key i32) (local $m i32) (local $t i32) (local $p i32)
    (local.set $n (call $ld (global.get $CELLS)))
    (local.set $m (i32.sub (call $spanEnd (i32.const 1)) (call $span (i32.const 1))))
    (local.set $t (i32.sub (call $spanEnd (i32.const 3)) (call $span (i32.const 3))))
    (local.set $p (i32.sub (call $spanEnd (i32.const 4)) (call $span (i32.const 4))))
    (local.set $key (call $ld (global.get $KEY_USED)))
    (if (i32.or (i32.ge_u (local.get $n) (i32.const 2048))
          (i32.gt_u (i32.add (i32.add (global.get $KEY_BASE) (local.get $key))
                             (i32.add (local.get $m) (i32.add (local.get $t) (local.get $p))))
                    (global.get $KEY_END)))
      (then (return (i32.const 0))))
    (local.set $key (i32.add (global.get $KEY_BASE) (local.get $key)))
    (memory.copy (local.get $key) (call $span (i32.const 1)) (local.get $m))
    (memory.copy (i32.add (local.get $key) (local.get $m)) (call $span (i32.const 3)) (local.get $t))
    (memory.copy (i32.add (local.get $key) (i32.add (local.get $m) (local.get $t))) (call $span (i32.const 4)) (local.get $p))
    (call $st (global.get $KEY_USED)
      (i32.add (call $ld (global.get $KEY_USED)) (i32.add (local.get $m) (i32.add (local.get $t) (local.get $p)))))
    (local.set $c (i32.add (global.get $CELL_BASE) (i32.mul (local.get $n) (i32.const 56))))
    (i32.store (local.get $c) (call $cellCode))
    (i32.store offset=4 (local.get $c) (local.get $key))
    (i32.store offset=8 (local.get $c) (local.get $m))
    (i32.store offset=12 (local.get $c) (local.get $t))
    (i32.store offset=16 (local.get $c) (local.get $p))
    (i32.store offset=20 (local.get $c) (i32.const 0))
    (f64.store offset=24 (local.get $c) (f64.const 0))
    (i64.store offset=32 (local.get $c) (i64.const 0))
    (f64.store offset=40 (local.get $c) (f64.const 0))
    (f64.store offset=48 (local.get $c) (f64.const 0))
    (i32.store (i32.add (global.get $SLOT_CELL) (i32.shl (call $ld (global.get $MISS_SLOT)) (i32.const 2)))
      (i32.add (local.get $n) (i32.const 1)))
    (i32.store (i32.add (global.get $SLOT_HASH) (i32.shl (call $ld (global.get $MISS_SLOT)) (i32.const 2)))
      (call $ld (global.get $CELL_HASH)))
    (call $st (global.get $CELLS) (i32.add (local.get $n) (i32.const 1)))
    (i32.const 1))

  ;; Empty the cells, the key log and the template (a new segment).
  (func (export "reset")
    (memory.fill (global.get $SLOT_CELL) (i32.const 0) (i32.const 0x4000))
    (call $st (global.get $CELLS) (i32.const 0))
    (call $st (global.get $KEY_USED) (i32.const 0))
    (call $st (global.get $LOG_COUNT) (i32.const 0))
    (call $st (global.get $REPEATED) (i32.const 0))
    (call $st (global.get $FIRST_LEN) (i32.const -1))
    (call $st (global.get $SLOTS) (i32.const 0)))

  ;; Read the lines from b (an address) while they match the template,
  ;; up to filled (an address; eof: whether the file ends there). Returns a
  ;; status (see above); POS is where it stopped and LINES how many lines
  ;; it read.
  (func (export "run") (param $b i32) (param $filled i32) (param $eof i32)
        (result i32)
    (local $end i32) (local $nl i32) (local $cell i32) (local $c i32) (local $lines i32)
    (local $log i32) (local $rs i32) (local $re i32) (local $u i64) (local $sum i64)
    (block $stop (result i32)
      (loop $line
        (if (i32.ge_u (local.get $b) (local.get $filled)) (then (br $stop (i32.const 0))))
        (local.set $end (call $match (local.get $b) (local.get $filled)))
        (if (i32.lt_s (local.get $end) (i32.const 0)) (then (br $stop (i32.const 1))))
        ;; a line end must follow: LF, CR LF, or the end of the file
        (local.set $nl (i32.const -1))
        (if (i32.lt_u (local.get $end) (local.get $filled))
          (then
            (if (i32.eq (i32.load8_u (local.get $end)) (i32.const 10))
              (then (local.set $nl (local.get $end)))
              (else
                (if (i32.and (i32.lt_u (i32.add (local.get $end) (i32.const 1)) (local.get $filled))
                      (i32.and (i32.eq (i32.load8_u (local.get $end)) (i32.const 13))
                               (i32.eq (i32.load8_u offset=1 (local.get $end)) (i32.const 10))))
                  (then (local.set $nl (i32.add (local.get $end) (i32.const 1))))))))
          (else (if (local.get $eof) (then (local.set $nl (local.get $end))))))
        (if (i32.lt_s (local.get $nl) (i32.const 0)) (then (br $stop (i32.const 1))))
        (if (i32.lt_s (call $ld (global.get $FIRST_LEN)) (i32.const 0)) (then (br $stop (i32.const 1))))
        (local.set $cell (call $cellOf))
        (if (i32.lt_s (local.get $cell) (i32.const 0)) (then (br $stop (i32.const 2))))
        (if (i32.ge_u (call $ld (global.get $LOG_COUNT)) (call $ld (global.get $LOG_CAP)))
          (then (br $stop (i32.const 3))))
        ;; the key into the log
        (call $hashKey)
        (local.set $log (i32.add (call $ld (global.get $LOG_BASE))
                                 (i32.shl (call $ld (global.get $LOG_COUNT)) (i32.const 3))))
        (i32.store (local.get $log) (global.get $h1))
        (i32.store offset=4 (local.get $log) (global.get $h2))
        (call $st (global.get $LOG_COUNT) (i32.add (call $ld (global.get $LOG_COUNT)) (i32.const 1)))
        ;; the counts of its cell
        (local.set $c (i32.add (global.get $CELL_BASE) (i32.mul (local.get $cell) (i32.const 56))))
        (f64.store offset=24 (local.get $c) (f64.add (f64.load offset=24 (local.get $c)) (f64.const 1)))
        (if (i32.eq (call $roleState (global.get $R_P)) (i32.const 1))
          (then (f64.store offset=40 (local.get $c) (f64.add (f64.load offset=40 (local.get $c)) (f64.const 1))))
          (else
            ;; 1 - pCorrect in units of 2^-53, an integer in [0, 2^53] (see
            ;; lib/math/exact_sum.ts), added exactly: a 64-bit sum at 32 and
            ;; its carries at 20
            (local.set $u (i64.trunc_f64_u
              (f64.mul (f64.sub (f64.const 1) (call $roleNum (global.get $R_P)))
                       (f64.const 9007199254740992))))
            (local.set $sum (i64.add (i64.load offset=32 (local.get $c)) (local.get $u)))
            (i64.store offset=32 (local.get $c) (local.get $sum))
            (if (i64.lt_u (local.get $sum) (local.get $u))
              (then (i32.store offset=20 (local.get $c)
                      (i32.add (i32.load offset=20 (local.get $c)) (i32.const 1)))))))
        (if (i32.eqz (call $roleCode (global.get $R_PARSE_OK)))
          (then (f64.store offset=48 (local.get $c) (f64.add (f64.load offset=48 (local.get $c)) (f64.const 1)))))
        ;; a trial other than 0, or another run: tasks repeat
        (local.set $rs (call $span (i32.const 0)))
        (local.set $re (call $spanEnd (i32.const 0)))
        (if (i32.or (f64.ne (call $roleNum (global.get $R_TRIAL)) (f64.const 0))
              (i32.eqz (call $same (local.get $rs) (local.get $re) (global.get $FIRST_RUN)
                         (call $ld (global.get $FIRST_LEN)))))
          (then (call $st (global.get $REPEATED) (i32.const 1))))
        (local.set $lines (i32.add (local.get $lines) (i32.const 1)))
        (local.set $b (i32.add (local.get $nl) (i32.const 1)))
        (br $line))
      (i32.const 0))
    (call $st (global.get $POS) (local.get $b))
    (call $st (global.get $LINES) (local.get $lines)))

  ;; Sort the key log into partitions by the top `bits` bits of h1 (a
  ;; counting sort, as partitionKeys in _key_partitions.ts; the order within
  ;; a partition is the log's): partition p's keys are `starts[p]` to
  ;; `starts[p + 1]` (parts + 1 i32 at $starts), each key two words, h2
  ;; then h1 (a 64-bit word that orders by h1 first) at $keys; $fill is
  ;; room for parts i32. Empties the log.
  (func (export "partition") (param $bits i32) (param $starts i32) (param $fill i32)
        (param $keys i32)
    (local $parts i32) (local $shift i32) (local $e i32) (local $end i32)
    (local $p i32) (local $at i32) (local $j i32)
    (local.set $parts (i32.shl (i32.const 1) (local.get $bits)))
    (local.set $shift (i32.sub (i32.const 31) (local.get $bits)))
    (memory.fill (local.get $starts) (i32.const 0)
      (i32.shl (i32.add (local.get $parts) (i32.const 1)) (i32.const 2)))
    (local.set $e (call $ld (global.get $LOG_BASE)))
    (local.set $end (i32.add (local.get $e) (i32.shl (call $ld (global.get $LOG_COUNT)) (i32.const 3))))
    ;; the count of each partition, at starts[p + 1]
    (block $counted
      (loop $l
        (br_if $counted (i32.ge_u (local.get $e) (local.get $end)))
        (local.set $at (i32.add (local.get $starts)
          (i32.shl (i32.add (i32.shr_u (i32.shr_u (i32.load (local.get $e)) (i32.const 1)) (local.get $shift))
                            (i32.const 1))
                   (i32.const 2))))
        (i32.store (local.get $at) (i32.add (i32.load (local.get $at)) (i32.const 1)))
        (local.set $e (i32.add (local.get $e) (i32.const 8)))
        (br $l)))
    ;; running sums: where each partition starts, and its next free place
    (block $summed
      (loop $l
        (br_if $summed (i32.ge_u (local.get $p) (local.get $parts)))
        (local.set $at (i32.add (local.get $starts) (i32.shl (local.get $p) (i32.const 2))))
        (i32.store offset=4 (local.get $at)
          (i32.add (i32.load offset=4 (local.get $at)) (i32.load (local.get $at))))
        (i32.store (i32.add (local.get $fill) (i32.shl (local.get $p) (i32.const 2)))
          (i32.load (local.get $at)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $l)))
    ;; each key to its partition's next place
    (local.set $e (call $ld (global.get $LOG_BASE)))
    (block $placed
      (loop $l
        (br_if $placed (i32.ge_u (local.get $e) (local.get $end)))
        (local.set $at (i32.add (local.get $fill)
          (i32.shl (i32.shr_u (i32.shr_u (i32.load (local.get $e)) (i32.const 1)) (local.get $shift))
                   (i32.const 2))))
        (local.set $j (i32.load (local.get $at)))
        (i32.store (local.get $at) (i32.add (local.get $j) (i32.const 1)))
        (i64.store (i32.add (local.get $keys) (i32.shl (local.get $j) (i32.const 3)))
          (i64.rotl (i64.load (local.get $e)) (i64.const 32)))
        (local.set $e (i32.add (local.get $e) (i32.const 8)))
        (br $l)))
    (call $st (global.get $LOG_COUNT) (i32.const 0)))
)
