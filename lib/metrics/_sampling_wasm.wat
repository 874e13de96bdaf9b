;; Dirichlet draws for lossPosterior (loss_posterior.ts), as WebAssembly:
;; the same generator, the same uniforms, normals and gamma draws, the same
;; operations in the same order as sampling.ts computes them in JavaScript,
;; so every draw is the same double. Math.log, Math.cos and Math.pow are the
;; engine's own, imported; square roots are exact in both. It exists because
;; a scoring process draws hundreds of thousands of gammas once, before the
;; engine has optimized the JavaScript that draws them; a property test
;; compares the two draw for draw.
;;
;; This is the source of the bytes in _sampling_wasm_bytes.ts, which
;; scripts/build_wasm.ts writes with wabt; a test rebuilds it and compares.
;;
;; Memory (byte addresses):
;;   0x00 the generator: xoroshiro128+ state s0, s1 (i64 each), as
;;        pure-rand keeps it in four 32-bit words (s00, s01, s10, s11)
;;   0x10 the shapes of one cell (f64 each), then its draws (f64 each),
;;        placed by JavaScript
(module
  (import "math" "log" (func $log (param f64) (result f64)))
  (import "math" "cos" (func $cos (param f64) (result f64)))
  (import "math" "pow" (func $pow (param f64 f64) (result f64)))
  (memory (export "memory") 1)

  ;; the low 32 bits of the next xoroshiro128+ output
  (func $next (result i32)
    (local $s0 i64) (local $s1 i64) (local $out i32)
    (local.set $s0 (i64.load (i32.const 0)))
    (local.set $s1 (i64.load (i32.const 8)))
    (local.set $out (i32.wrap_i64 (i64.add (local.get $s0) (local.get $s1))))
    (local.set $s1 (i64.xor (local.get $s1) (local.get $s0)))
    (i64.store (i32.const 0)
      (i64.xor (i64.xor (i64.rotl (local.get $s0) (i64.const 24)) (local.get $s1))
               (i64.shl (local.get $s1) (i64.const 16))))
    (i64.store (i32.const 8) (i64.rotl (local.get $s1) (i64.const 37)))
    (local.get $out))

  ;; a uniform double in [0, 1): 26 bits of one output and 27 of the next
  ;; (pure-rand's uniformFloat64)
  (func $uniform (result f64)
    (local $hi i32)
    (local.set $hi (i32.and (call $next) (i32.const 0x3ffffff)))
    (f64.add
      (f64.mul (f64.convert_i32_u (local.get $hi)) (f64.const 0x1p-26))
      (f64.mul (f64.convert_i32_u (i32.and (call $next) (i32.const 0x7ffffff)))
               (f64.const 0x1p-53))))

  ;; a uniform that is not 0
  (func $positive (result f64)
    (local $u f64)
    (local.set $u (call $uniform))
    (block $done
      (loop $again
        (br_if $done (f64.ne (local.get $u) (f64.const 0)))
        (local.set $u (call $uniform))
        (br $again)))
    (local.get $u))

  ;; a standard normal draw by Box-Muller (sampling.ts's normal)
  (func $normal (result f64)
    (local $r f64)
    (local.set $r (f64.sqrt (f64.mul (f64.const -2) (call $log (call $positive)))))
    (f64.mul (local.get $r)
      (call $cos (f64.mul (f64.mul (f64.const 2) (f64.const 0x1.921fb54442d18p+1))
                          (call $uniform)))))

  ;; Gamma(shape, 1) for shape >= 1, by Marsaglia and Tsang
  (func $marsaglia (param $shape f64) (result f64)
    (local $d f64) (local $c f64) (local $x f64) (local $t f64) (local $v f64) (local $u f64)
    (local.set $d (f64.sub (local.get $shape) (f64.div (f64.const 1) (f64.const 3))))
    (local.set $c (f64.div (f64.const 1) (f64.sqrt (f64.mul (f64.const 9) (local.get $d)))))
    (loop $try
      (local.set $x (call $normal))
      (local.set $t (f64.add (f64.const 1) (f64.mul (local.get $c) (local.get $x))))
      (br_if $try (f64.le (local.get $t) (f64.const 0)))
      (local.set $v (f64.mul (f64.mul (local.get $t) (local.get $t)) (local.get $t)))
      (local.set $u (call $uniform))
      (if (f64.lt (local.get $u)
            (f64.sub (f64.const 1)
              (f64.mul (f64.mul (f64.mul (f64.mul (f64.const 0.0331) (local.get $x))
                                         (local.get $x)) (local.get $x)) (local.get $x))))
        (then (return (f64.mul (local.get $d) (local.get $v)))))
      (if (f64.lt (call $log (local.get $u))
            (f64.add
              (f64.mul (f64.mul (f64.const 0.5) (local.get $x)) (local.get $x))
              (f64.mul (local.get $d)
                (f64.add (f64.sub (f64.const 1) (local.get $v)) (call $log (local.get $v))))))
        (then (return (f64.mul (local.get $d) (local.get $v)))))
      (br $try))
    (unreachable))

  ;; Gamma(shape, 1) for shape > 0 (sampling.ts's gamma): below 1, the
  ;; uniform first, then Gamma(shape + 1) * U^(1/shape)
  (func $gamma (param $shape f64) (result f64)
    (local $u f64)
    (if (f64.lt (local.get $shape) (f64.const 1))
      (then
        (local.set $u (call $positive))
        (return (f64.mul (call $marsaglia (f64.add (local.get $shape) (f64.const 1)))
                         (call $pow (local.get $u) (f64.div (f64.const 1) (local.get $shape)))))))
    (call $marsaglia (local.get $shape)))

  ;; `draws` Dirichlet draws over the m shapes at $shapes, into $out (draw
  ;; d's share of kind k at d * m + k): m gammas, then each divided by their
  ;; sum, as lossPosterior computes them
  (func (export "dirichlet") (param $shapes i32) (param $m i32) (param $draws i32)
        (param $out i32)
    (local $d i32) (local $k i32) (local $row i32) (local $total f64) (local $g f64)
    (local $at i32)
    (block $drawn
      (loop $draw
        (br_if $drawn (i32.ge_u (local.get $d) (local.get $draws)))
        (local.set $row (i32.add (local.get $out)
          (i32.shl (i32.mul (local.get $d) (local.get $m)) (i32.const 3))))
        (local.set $total (f64.const 0))
        (local.set $k (i32.const 0))
        (block $kinds
          (loop $kind
            (br_if $kinds (i32.ge_u (local.get $k) (local.get $m)))
            (local.set $g (call $gamma
              (f64.load (i32.add (local.get $shapes) (i32.shl (local.get $k) (i32.const 3))))))
            (f64.store (i32.add (local.get $row) (i32.shl (local.get $k) (i32.const 3)))
              (local.get $g))
            (local.set $total (f64.add (local.get $total) (local.get $g)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $kind)))
        (local.set $k (i32.const 0))
        (block $shared
          (loop $share
            (br_if $shared (i32.ge_u (local.get $k) (local.get $m)))
            (local.set $at (i32.add (local.get $row) (i32.shl (local.get $k) (i32.const 3))))
            (f64.store (local.get $at) (f64.div (f64.load (local.get $at)) (local.get $total)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $share)))
        (local.set $d (i32.add (local.get $d) (i32.const 1)))
        (br $draw))))
)
