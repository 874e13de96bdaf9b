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
;; The bootstrap's multinomial resamples (bootstrapRatioIntervals in
;; bootstrap.ts) are drawn here the same way: conditional binomials by
;; inversion or Hörmann's BTRS, as sampling.ts's multinomial and binomial.
;;
;; Memory (byte addresses):
;;   0x00 the generator: xoroshiro128+ state s0, s1 (i64 each), as
;;        pure-rand keeps it in four 32-bit words (s00, s01, s10, s11)
;;   0x10 Stirling's series corrections for k < 10 (f64 each, set by init)
;;   0x100 the inputs (shapes, or weights; f64 each), then the draws (f64
;;        each), placed by JavaScript
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

  ;; the corrections log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi)/2]
  ;; for k < 10, the literals of sampling.ts's table
  (func (export "init")
    (f64.store (i32.const 0x10) (f64.const 0.08106146679532726))
    (f64.store (i32.const 0x18) (f64.const 0.04134069595540929))
    (f64.store (i32.const 0x20) (f64.const 0.02767792568499834))
    (f64.store (i32.const 0x28) (f64.const 0.02079067210376509))
    (f64.store (i32.const 0x30) (f64.const 0.01664469118982119))
    (f64.store (i32.const 0x38) (f64.const 0.01387612882307075))
    (f64.store (i32.const 0x40) (f64.const 0.01189670994589177))
    (f64.store (i32.const 0x48) (f64.const 0.01041126526197209))
    (f64.store (i32.const 0x50) (f64.const 0.009255462182712733))
    (f64.store (i32.const 0x58) (f64.const 0.008330563433362871)))

  ;; sampling.ts's stirlingTail(k), k a whole number >= 0
  (func $stirlingTail (param $k f64) (result f64)
    (local $kp1 f64) (local $k2 f64)
    (if (f64.lt (local.get $k) (f64.const 10))
      (then (return (f64.load (i32.add (i32.const 0x10)
        (i32.shl (i32.trunc_f64_u (local.get $k)) (i32.const 3)))))))
    (local.set $kp1 (f64.add (local.get $k) (f64.const 1)))
    (local.set $k2 (f64.mul (local.get $kp1) (local.get $kp1)))
    (f64.div
      (f64.sub (f64.div (f64.const 1) (f64.const 12))
        (f64.div
          (f64.sub (f64.div (f64.const 1) (f64.const 360))
                   (f64.div (f64.div (f64.const 1) (f64.const 1260)) (local.get $k2)))
          (local.get $k2)))
      (local.get $kp1)))

  ;; Binomial(n, p) by inversion (n p < 10)
  (func $inversion (param $n f64) (param $p f64) (result f64)
    (local $q f64) (local $s f64) (local $a f64) (local $r f64) (local $u f64) (local $x f64)
    (local.set $q (f64.sub (f64.const 1) (local.get $p)))
    (local.set $s (f64.div (local.get $p) (local.get $q)))
    (local.set $a (f64.mul (f64.add (local.get $n) (f64.const 1)) (local.get $s)))
    (loop $try
      (local.set $r (call $pow (local.get $q) (local.get $n)))
      (local.set $u (call $uniform))
      (local.set $x (f64.const 0))
      (block $found
        (loop $walk
          (br_if $found (i32.eqz (f64.gt (local.get $u) (local.get $r))))
          (local.set $u (f64.sub (local.get $u) (local.get $r)))
          (local.set $x (f64.add (local.get $x) (f64.const 1)))
          (br_if $found (f64.gt (local.get $x) (local.get $n)))
          (local.set $r (f64.mul (local.get $r)
            (f64.sub (f64.div (local.get $a) (local.get $x)) (local.get $s))))
          (br $walk)))
      (if (f64.le (local.get $x) (local.get $n)) (then (return (local.get $x))))
      (br $try))
    (unreachable))

  ;; Binomial(n, p) by Hörmann's BTRS (n p >= 10, p <= 1/2)
  (func $btrs (param $n f64) (param $p f64) (result f64)
    (local $q f64) (local $spq f64) (local $b f64) (local $a f64) (local $c f64)
    (local $vr f64) (local $r f64) (local $alpha f64) (local $m f64)
    (local $u f64) (local $v f64) (local $us f64) (local $k f64) (local $bound f64)
    (local.set $q (f64.sub (f64.const 1) (local.get $p)))
    (local.set $spq (f64.sqrt (f64.mul (f64.mul (local.get $n) (local.get $p)) (local.get $q))))
    (local.set $b (f64.add (f64.const 1.15) (f64.mul (f64.const 2.53) (local.get $spq))))
    (local.set $a (f64.add (f64.add (f64.const -0.0873) (f64.mul (f64.const 0.0248) (local.get $b)))
                           (f64.mul (f64.const 0.01) (local.get $p))))
    (local.set $c (f64.add (f64.mul (local.get $n) (local.get $p)) (f64.const 0.5)))
    (local.set $vr (f64.sub (f64.const 0.92) (f64.div (f64.const 4.2) (local.get $b))))
    (local.set $r (f64.div (local.get $p) (local.get $q)))
    (local.set $alpha (f64.mul (f64.add (f64.const 2.83) (f64.div (f64.const 5.1) (local.get $b)))
                               (local.get $spq)))
    (local.set $m (f64.floor (f64.mul (f64.add (local.get $n) (f64.const 1)) (local.get $p))))
    (loop $try
      (local.set $u (f64.sub (call $uniform) (f64.const 0.5)))
      (local.set $v (call $uniform))
      (local.set $us (f64.sub (f64.const 0.5) (f64.abs (local.get $u))))
      (local.set $k (f64.floor (f64.add
        (f64.mul (f64.add (f64.div (f64.mul (f64.const 2) (local.get $a)) (local.get $us))
                          (local.get $b))
                 (local.get $u))
        (local.get $c))))
      (if (i32.and (f64.ge (local.get $us) (f64.const 0.07)) (f64.le (local.get $v) (local.get $vr)))
        (then (return (local.get $k))))
      (br_if $try (i32.or (f64.lt (local.get $k) (f64.const 0)) (f64.gt (local.get $k) (local.get $n))))
      (local.set $v (call $log (f64.div (f64.mul (local.get $v) (local.get $alpha))
        (f64.add (f64.div (local.get $a) (f64.mul (local.get $us) (local.get $us))) (local.get $b)))))
      (local.set $bound
        (f64.sub
          (f64.sub
            (f64.add
              (f64.add
                (f64.add
                  (f64.add
                    (f64.mul (f64.add (local.get $m) (f64.const 0.5))
                      (call $log (f64.div (f64.add (local.get $m) (f64.const 1))
                        (f64.mul (local.get $r)
                          (f64.add (f64.sub (local.get $n) (local.get $m)) (f64.const 1))))))
                    (f64.mul (f64.add (local.get $n) (f64.const 1))
                      (call $log (f64.div
                        (f64.add (f64.sub (local.get $n) (local.get $m)) (f64.const 1))
                        (f64.add (f64.sub (local.get $n) (local.get $k)) (f64.const 1))))))
                  (f64.mul (f64.add (local.get $k) (f64.const 0.5))
                    (call $log (f64.div
                      (f64.mul (local.get $r)
                        (f64.add (f64.sub (local.get $n) (local.get $k)) (f64.const 1)))
                      (f64.add (local.get $k) (f64.const 1))))))
                (call $stirlingTail (local.get $m)))
              (call $stirlingTail (f64.sub (local.get $n) (local.get $m))))
            (call $stirlingTail (local.get $k)))
          (call $stirlingTail (f64.sub (local.get $n) (local.get $k)))))
      (if (f64.le (local.get $v) (local.get $bound)) (then (return (local.get $k))))
      (br $try))
    (unreachable))

  ;; sampling.ts's binomial(n, p), n a whole number >= 0 and p in [0, 1]
  (func $binomial (param $n f64) (param $p f64) (result f64)
    (if (i32.or (f64.eq (local.get $n) (f64.const 0)) (f64.eq (local.get $p) (f64.const 0)))
      (then (return (f64.const 0))))
    (if (f64.eq (local.get $p) (f64.const 1)) (then (return (local.get $n))))
    (if (f64.gt (local.get $p) (f64.const 0.5))
      (then (return (f64.sub (local.get $n)
        (call $binomial (local.get $n) (f64.sub (f64.const 1) (local.get $p)))))))
    (if (result f64) (f64.lt (f64.mul (local.get $n) (local.get $p)) (f64.const 10))
      (then (call $inversion (local.get $n) (local.get $p)))
      (else (call $btrs (local.get $n) (local.get $p)))))

  ;; `resamples` draws of sampling.ts's multinomial(n, the m weights at
  ;; $weights) into $out (resample b's count of category i at b * m + i):
  ;; category i gets Binomial(n left, w_i / weight left), the last what is
  ;; left
  (func (export "multinomials") (param $n f64) (param $weights i32) (param $m i32)
        (param $resamples i32) (param $out i32)
    (local $b i32) (local $i i32) (local $row i32) (local $all f64) (local $mass f64)
    (local $left f64) (local $w f64) (local $k f64)
    (block $summed
      (loop $sum
        (br_if $summed (i32.ge_u (local.get $i) (local.get $m)))
        (local.set $all (f64.add (local.get $all)
          (f64.load (i32.add (local.get $weights) (i32.shl (local.get $i) (i32.const 3))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $sum)))
    (memory.fill (local.get $out) (i32.const 0)
      (i32.shl (i32.mul (local.get $resamples) (local.get $m)) (i32.const 3)))
    (block $drawn
      (loop $draw
        (br_if $drawn (i32.ge_u (local.get $b) (local.get $resamples)))
        (local.set $row (i32.add (local.get $out)
          (i32.shl (i32.mul (local.get $b) (local.get $m)) (i32.const 3))))
        (local.set $mass (local.get $all))
        (local.set $left (local.get $n))
        (local.set $i (i32.const 0))
        (block $filled
          (loop $fill
            (br_if $filled (i32.ge_u (local.get $i) (local.get $m)))
            (br_if $filled (i32.eqz (f64.gt (local.get $left) (f64.const 0))))
            (local.set $w (f64.load (i32.add (local.get $weights) (i32.shl (local.get $i) (i32.const 3)))))
            (local.set $k
              (if (result f64) (i32.or (i32.eq (local.get $i) (i32.sub (local.get $m) (i32.const 1)))
                                       (f64.ge (local.get $w) (local.get $mass)))
                (then (local.get $left))
                (else (call $binomial (local.get $left) (f64.div (local.get $w) (local.get $mass))))))
            (f64.store (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 3))) (local.get $k))
            (local.set $left (f64.sub (local.get $left) (local.get $k)))
            (local.set $mass (f64.sub (local.get $mass) (local.get $w)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $fill)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $draw))))

  ;; bootstrap.ts's ratioOf for every resample and ratio: with the counts
  ;; of resample b at $counts + 8 (b * m) and ratio j's numerator and
  ;; denominator weights at $num + 8 (j * m) and $den + 8 (j * m), the value
  ;; Σ num·count / Σ den·count (summed in category order) at $out +
  ;; 8 (b * ratios + j), or NaN where the denominator is 0
  (func (export "ratios") (param $counts i32) (param $resamples i32) (param $m i32)
        (param $num i32) (param $den i32) (param $ratios i32) (param $out i32)
    (local $b i32) (local $j i32) (local $i i32) (local $row i32) (local $w i32)
    (local $a f64) (local $d f64) (local $c f64)
    (block $done
      (loop $resample
        (br_if $done (i32.ge_u (local.get $b) (local.get $resamples)))
        (local.set $row (i32.add (local.get $counts)
          (i32.shl (i32.mul (local.get $b) (local.get $m)) (i32.const 3))))
        (local.set $j (i32.const 0))
        (block $ratiosDone
          (loop $ratio
            (br_if $ratiosDone (i32.ge_u (local.get $j) (local.get $ratios)))
            (local.set $w (i32.shl (i32.mul (local.get $j) (local.get $m)) (i32.const 3)))
            (local.set $a (f64.const 0))
            (local.set $d (f64.const 0))
            (local.set $i (i32.const 0))
            (block $summed
              (loop $sum
                (br_if $summed (i32.ge_u (local.get $i) (local.get $m)))
                (local.set $c (f64.load (i32.add (local.get $row) (i32.shl (local.get $i) (i32.const 3)))))
                (local.set $a (f64.add (local.get $a)
                  (f64.mul (f64.load (i32.add (i32.add (local.get $num) (local.get $w))
                                              (i32.shl (local.get $i) (i32.const 3))))
                           (local.get $c))))
                (local.set $d (f64.add (local.get $d)
                  (f64.mul (f64.load (i32.add (i32.add (local.get $den) (local.get $w))
                                              (i32.shl (local.get $i) (i32.const 3))))
                           (local.get $c))))
                (local.set $i (i32.add (local.get $i) (i32.const 1)))
                (br $sum)))
            (f64.store (i32.add (local.get $out)
                (i32.shl (i32.add (i32.mul (local.get $b) (local.get $ratios)) (local.get $j)) (i32.const 3)))
              (if (result f64) (f64.eq (local.get $d) (f64.const 0))
                (then (f64.const nan))
                (else (f64.div (local.get $a) (local.get $d)))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $ratio)))
        (local.set $b (i32.add (local.get $b) (i32.const 1)))
        (br $resample))))
)
