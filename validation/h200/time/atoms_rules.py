"""Session 22: which bank rule gives the measured ATOMS.ADD wavefronts of kernels/timing/atoms_study
random-bin launches (validation/h200/measured_atoms_study.json)? Recomputes the kernel's word indices and
prints, per instruction, measured wavefronts per execution and rules A (most lanes per bank),
B (distinct words per bank + most lanes on one word - 1) and C (max of the two). Run from the repository root."""
import json
from collections import Counter
M=0xffffffff
def mix(h):
    h^=h>>16; h=(h*0x7feb352d)&M; h^=h>>15; h=(h*0x846ca68b)&M; h^=h>>16; return h
d=json.load(open('validation/h200/measured_atoms_study.json'))
spec=json.load(open('kernels/timing/atoms_study.json'))
for l,s in zip(d['launches'],spec['launches']):
    if 'add_rand' not in l['name']: continue
    iters,mult,stride,nbins,share,seed=[a['value'] for a in s['args'][1:]]
    # per j: sum over warps of rule counts, per block (blocks identical)
    ruleA=[0]*8; ruleB=[0]*8; ruleC=[0]*8
    for w in range(8):
        base=0 if share else w*1024
        for j in range(8):
            words=[(base+mix(seed^((w*32+ln)*8+j))%nbins)&8191 for ln in range(32)]
            banks=Counter(x%32 for x in words)
            ruleA[j]+=max(banks.values())
            mult_=Counter(words)
            distinct_per_bank=Counter(x%32 for x in set(words))
            ruleB[j]+=max(distinct_per_bank.values())+max(mult_.values())-1
            ruleC[j]+=max(max(distinct_per_bank.values()),max(mult_.values()))
    blocks=528; reps=iters//4  # each pc executes iters/4 times per warp (unroll 4)
    meas=[i for i in l['instructions'] if i['sass'].startswith('ATOMS') and i['executed']>0]
    # map pc to j by register? pcs in order: j cycles 0..7
    for k,i in enumerate(meas[:8]):
        j=k%8
        per=i['wavefronts']/i['executed']
        print(l['name'], j, 'meas/exec %.4f'%per, 'A %.4f'%(ruleA[j]/8), 'B %.4f'%(ruleB[j]/8), 'C %.4f'%(ruleC[j]/8))
