// Written by `npm run calibrate` (bench/quality/calibrate.ts); run it again rather than edit by hand.
import type { Calibration } from './calibrate';

export const CALIBRATION: Calibration = {
  why:
    'Isotonic regression of being the row\'s person on the raw share, per kind of row, on the labeled ' +
    'evaluation set: a confidence is the share of such candidates that were the person there. Where the ' +
    'set had no candidate, the raw share, held between the neighbouring probabilities: no claim beyond ' +
    'the data.',
  fittedOn: { seed: 43, people: 50000, rowsPerCategory: 600 },
  maps: {
    guarded: {
      candidates: 8812,
      blocks: [
        [0, 0.0597, 0.0016], [0.0601, 0.0639, 0.1351], [0.064, 0.123, 0.2829], [0.1233, 0.1734, 0.4028],
        [0.1745, 0.2985, 0.4571], [0.3007, 0.9999, 0.5185],
      ],
      allRightFrom: null,
    },
    clear: {
      candidates: 3644,
      blocks: [
        [0, 0.1185, 0.012], [0.8721, 1, 0.9997],
      ],
      allRightFrom: 0.8721,
    },
    twins: {
      candidates: 1397,
      blocks: [
        [0, 0.2072, 0.0183], [0.2493, 0.4808, 0.4405], [0.4824, 0.6444, 0.4987], [0.6478, 0.6534, 0.5463],
      ],
      allRightFrom: null,
    },
    not_at_company: {
      candidates: 4435,
      blocks: [
        [0.0001, 0.0459, 0.0011], [0.0601, 0.0639, 0.1402], [0.064, 0.123, 0.2867], [0.1233, 0.1734, 0.412],
        [0.1745, 0.9804, 0.6056],
      ],
      allRightFrom: null,
    },
    near_name: {
      candidates: 657,
      blocks: [
        [0.0012, 0.4881, 0.2329], [0.5502, 0.9647, 0.9813], [0.9761, 0.9761, 0.9969],
      ],
      allRightFrom: 0.9761,
    },
    no_company: {
      candidates: 1098,
      blocks: [
        [0.0014, 0.2213, 0.0419], [0.2217, 0.3509, 0.3182], [0.3654, 0.4546, 0.5], [0.5519, 0.9091, 0.9978],
      ],
      allRightFrom: 0.5519,
    },
    hit_other_name: {
      candidates: 600,
      blocks: [
        [0.9863, 0.9997, 0.0017],
      ],
      allRightFrom: null,
    },
    hit_family_name: {
      candidates: 600,
      blocks: [
        [0.9934, 0.9999, 0.0017],
      ],
      allRightFrom: null,
    },
  },
};
