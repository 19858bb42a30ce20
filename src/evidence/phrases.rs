//! The phrase book of reply reading (grammar: `grammar/evidence-signal.md`):
//! every family of sentences that decides something about a regression
//! (a fix confirmed, the report disputed or withdrawn, the cost accepted,
//! a fix or a revert promised, the culprit's series set aside), and how a
//! sentence is read around a match (a question, a condition, a negation, a
//! hedge).
//!
//! [`PHRASES`] is the one place that lists them: each phrase has its kind,
//! whether it is only ever a guess, whether its words already carry the
//! negation, and a lower-case regex with one `(?P<cue>...)` group of literal
//! alternatives that every match contains. The prefilter that lets most
//! paragraphs skip sentence splitting is made from the cue groups
//! ([`cue_keys`]); nothing else lists words.

use std::sync::LazyLock;

use regex::Regex;

use crate::model::SignalKind;

/// One family of sentences.
#[derive(Debug, Clone, Copy)]
pub struct Phrase {
    /// What a sentence of this family says.
    pub kind: SignalKind,
    /// Only ever a guess ("a rather artificial benchmark"): a doubt, not a
    /// decision.
    pub tentative: bool,
    /// The words carry the negation themselves ("won't fix", "not worth
    /// it", "cannot reproduce"): a negation before them is not a denial.
    pub negative: bool,
    /// Lower-case regex; `{w}` is one word, `{thing}` a regression or its
    /// cost, named in one place for every phrase; one
    /// `(?P<cue>...)` group of literal alternatives, outside any
    /// alternation or repetition, is in every match.
    pub pattern: &'static str,
}

const fn p(kind: SignalKind, pattern: &'static str) -> Phrase {
    Phrase {
        kind,
        tentative: false,
        negative: false,
        pattern,
    }
}

const fn neg(kind: SignalKind, pattern: &'static str) -> Phrase {
    Phrase {
        kind,
        tentative: false,
        negative: true,
        pattern,
    }
}

const fn guess(kind: SignalKind, negative: bool, pattern: &'static str) -> Phrase {
    Phrase {
        kind,
        tentative: true,
        negative,
        pattern,
    }
}

use SignalKind::{
    CannotReproduce, ConfirmsFix, Declines, Disputes, Layout, MaybeDeclines, MaybeDisputes, Noise,
    SetsAside, Superseded, WillFix, WillRevert, Withdraws,
};

/// Every phrase family, in the order their kinds are reported for one
/// sentence. A cue is the rarest part of its phrase: the prefilter passes a
/// paragraph only when it holds one.
pub const PHRASES: &[Phrase] = &[
    // A fix restores the performance.
    p(
        ConfirmsFix,
        r"\bperformance (?:is |was |has been |got |gets )?(?:fully |mostly |largely |now )?(?P<cue>restored|recovered)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>performance is back|performance was back|performance is now back|performance comes back|performance came back|performance got back|performance is fully back|performance is mostly back)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>regression|regressions|degradation|degradations)(?: {w}){0,3} (?:gone|reclaimed|recovered|fixed|resolved|disappear|disappears|disappeared|vanish|vanishes|vanished)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:drop|drops|issue|problem)(?: {w}){0,3} (?P<cue>gone|reclaimed|recovered|disappear|disappears|disappeared|vanish|vanishes|vanished)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:can|could|does|did|will|should) (?:{w} )?fix (?:the|this) (?P<cue>regression)\b",
    ),
    p(ConfirmsFix, r"\bfix(?:es|ed)? the (?P<cue>regression)\b"),
    p(
        ConfirmsFix,
        r"\b(?P<cue>recover)(?:s|ed|ing)?(?: {w}){0,4} (?:performance|regression|loss|drop)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>restor)(?:es|ed|ing|e)(?: {w}){0,4} performance\b",
    ),
    // The bisect or the report is doubted.
    p(
        Disputes,
        r"\b(?P<cue>bisect|bisection) (?:went|has gone|is|was|must be|seems|seemed|looks|might be|may be|might have|may have|must have|has) (?:{w} ){0,3}(?:wrong|bogus|incorrect|off|misleading|astray)\b",
    ),
    neg(
        Disputes,
        r"\bnot (?:a |really a |an |actually a )?(?P<cue>real regression|genuine regression|true regression|actual regression|real problem|real issue|genuine problem|genuine issue)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>wrong bisect|wrong bisection|wrong commit|wrong culprit|bogus bisect|bogus bisection|bogus commit|incorrect bisect|incorrect bisection|incorrect commit)\b",
    ),
    neg(
        Disputes,
        r"\b(?:can't|cannot|can not|couldn't|could not) (?:possibly )?(?P<cue>be caused|be responsible|be the cause|be the culprit|be related)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>don't think|do not think|don't believe|do not believe|can't see how|cannot see how|don't see how|do not see how|can't imagine how|cannot imagine how|don't understand how|do not understand how|can't see why|don't see why) (?:this|that|the|my|our|your|his|her) (?:{w} )?(?:commit|patch|change|series) (?:is|can|could|would|should|has|makes|causes|caused|affects|explains|would cause)\b",
    ),
    neg(
        Disputes,
        r"\b(?:has|have|had) (?P<cue>nothing to do) with\b",
    ),
    neg(
        Disputes,
        r"\b(?:this|the|that|my|our|your) (?:{w} )?(?:commit|patch|change) (?:really |even |possibly )?(?:shouldn't|should not|can't|cannot|couldn't|could not|doesn't|does not) (?P<cue>change anything|make any difference|make a difference|matter at all|change performance|affect performance|affect anything)\b",
    ),
    // An improvement that is not one: the speed came from something else.
    p(
        Disputes,
        r"\b(?P<cue>contrary to) (?:what(?:'s| is| was)? (?:indicated|said|shown|claimed|stated|reported) in )?(?:the|this|your) (?:report|numbers|results)\b",
    ),
    p(
        Disputes,
        r"\b(?:an? |the |this )(?P<cue>apparent|illusory|bogus|fake|artificial) (?:win|improvement|gain|speedup|speed-up)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:this|the|that|my|our|your) (?:{w} )?(?:commit|patch|change) (?:doesn't|does not|shouldn't|should not|cannot|can't|couldn't|could not) (?:even |really |possibly |in any way )?(?P<cue>affect|impact|influence|be exercised|be executed|be involved)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?P<cue>not called|not used|not exercised|not executed|not compiled|not enabled|not reached|not involved|not built|never called|never used|never exercised|never executed|never reached|not even called|not even used|not even compiled|not even enabled|not even built|isn't used|isn't called|isn't enabled|isn't compiled|isn't built|aren't used) (?:in|by|during|for|on|with) (?:this|the|that|these|those|your) (?:{w} )?(?:test|tests|workload|benchmark|config|configuration|kernel|setup|run|case)\b",
    ),
    guess(Disputes, true, r"\bnot (?P<cue>convinced)\b"),
    neg(
        Disputes,
        r"\b(?:not|isn't|is not) (?:really |very )?(?P<cue>actionable)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:quite |very |rather )?(?P<cue>mixed result|mixed results|mixed picture|mixed bag)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>skeptical|sceptical|doubtful) (?:of|about|on|that)\b",
    ),
    // The result cannot be reproduced.
    neg(
        CannotReproduce,
        r"\b(?:can't|cannot|can not|couldn't|could not|unable to|not able to|fail to|failed to|failing to) (?:{w} )?(?P<cue>reproduce|repro)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:doesn't|does not|didn't|did not) (?P<cue>reproduce)\b",
    ),
    neg(CannotReproduce, r"\bnot (?P<cue>reproducible)\b"),
    neg(
        CannotReproduce,
        r"\b(?:haven't|have not|'ve not|never|not) been able to (?:{w} )?(?P<cue>reproduce|repro)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:i|we) (?P<cue>see no|saw no|get no|got no|measure no|measured no|observe no|observed no|notice no|noticed no|found no) (?:{w} )?(?:regression|difference|slowdown|degradation)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>can't see|cannot see|couldn't see|could not see|can't find|cannot find|couldn't find|could not find|can't measure|cannot measure|can't spot|cannot spot|can't observe|cannot observe) (?:any|a|the|much|an) (?:{w} )?(?:difference|regression|slowdown|degradation)\b",
    ),
    // The change is called noise.
    p(
        Noise,
        r"\b(?:just|only|mostly|pure|likely|probably|is|be|looks like|within|within the|in the) (?P<cue>noise)\b",
    ),
    p(Noise, r"\b(?P<cue>noisy)\b"),
    p(
        Noise,
        r"\brun[- ]to[- ]run (?P<cue>variation|variance|noise)\b",
    ),
    p(Noise, r"\b(?P<cue>fluctuat)(?:es|ion|ions|ing|e|ed)\b"),
    // The change is blamed on code or data layout.
    p(
        Layout,
        r"\b(?P<cue>layout) (?:{w} )?(?:change|changes|changed|shift|shifts|difference|differences|effect|effects|issue)\b",
    ),
    p(
        Layout,
        r"\b(?:code|data|section|text|cache ?line|function|kernel|struct|structure) (?:section )?(?P<cue>layout|alignment|placement)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>alignment|placement) (?:change|changes|changed|issue|effect)\b",
    ),
    p(
        Layout,
        r"\b(?:aligned|placed|placing {w}) (?P<cue>differently)\b",
    ),
    // The cost is accepted.
    p(
        Declines,
        r"\b(?:this|the|that) {thing} (?:in|of) (?:{w} ){1,2}(?:is|was|seems|looks|would be|will be) (?:{w} ){0,2}(?P<cue>expected|intended|intentional|deliberate|acceptable|inevitable|unavoidable|by design|tolerable|justified)\b",
    ),
    neg(
        Declines,
        r"\b(?:it|this|that|which)(?:'s| is| was| isn't| is not| wasn't| was not)? (?:really |actually |practically |just )?(?:not |no )(?:a |such a )?(?:really )?(?P<cue>big deal|huge deal|real concern)\b(?:\s*[.,;:!)]|\s*$| (?:for (?:me|us|users|anyone)|here|at all|either|anyway|in practice))",
    ),
    p(
        Declines,
        r"\b(?:it|this|that|the (?:{w} )?(?:patch|commit|change|fix)) (?:really |simply |just )?(?P<cue>needed to go in|had to go in|has to go in|needs to go in|had to be done|was necessary|is necessary)\b",
    ),
    neg(
        Declines,
        r"\b(?:no|not any|won't be any|will not be any) (?:{w} )?(?P<cue>noticeable|measurable|significant|real|visible|practical|user-visible|meaningful) (?:{w} )?(?:impact|effect|difference|slowdown) (?:on|for|to) (?:{w} )?(?:users|real|actual|normal|typical|practical|production|workloads|applications|systems)\b",
    ),
    p(
        Declines,
        r"\b(?:this|the|that|such an?|any|some|a|an) (?:{w} )?{thing} (?:is|was|seems|looks|sounds|would be|will be|is still|is simply|seems to be|looks to be) (?:{w} ){0,2}(?P<cue>expected|intended|intentional|deliberate|acceptable|inevitable|unavoidable|by design|tolerable|understandable|justified|worth it|the price)\b",
    ),
    p(
        Declines,
        r"\b(?:an? |the |this |that |some )(?P<cue>expected|intended|intentional|deliberate|acceptable|tolerable|unavoidable|inevitable|reasonable) (?:{w} )?(?:regression|slowdown|cost|trade-?off|side[- ]effect|overhead|penalty|consequence|loss|hit)\b",
    ),
    p(
        Declines,
        r"\b(?:it|this|that|which)(?:'s| is| was) (?:a |an |the )(?:{w} ){0,2}(?P<cue>trade-off|tradeoff|trade off|compromise)\b",
    ),
    p(
        Declines,
        r"\b(?:we|i|one|people|users|you) (?:can|could|will have to|have to|should be able to|are willing to|am willing to|'ll have to|can just|could just) (?P<cue>live with)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>price) (?:to pay|we (?:have to |must |need to )?pay|worth paying|of (?:correctness|safety|security|fixing))\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>worth) (?:the|that|this|a|some) (?:{w} )?(?:cost|price|overhead|hit|regression|slowdown|penalty|loss)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>correctness|safety|robustness) (?:trumps|over|wins|first|matters more|is more important|comes first|before|beats)\b",
    ),
    p(
        Declines,
        r"\b(?:the )?(?P<cue>old code|old behaviour|old behavior|old logic|old implementation|old way|old version|old approach|old scheme|previous code|previous behaviour|previous behavior|previous logic|previous implementation|original code|original behaviour|original behavior|original implementation|prior code|former code) (?:was|is|had been) (?:{w} ){0,2}(?:buggy|wrong|broken|incorrect|unsafe|racy|bogus|cheating|a bug)\b",
    ),
    neg(
        Declines,
        r"\b(?:i|we|i'm|we're|i am|we are)(?: really| just| simply)? (?P<cue>won't|will not|not going to|don't plan to|do not plan to|have no plan to|have no plans to|not planning to|don't intend to|do not intend to|don't want to|do not want to) (?:{w} )?(?:fix|chase|look into|investigate|bother|worry|pursue|address|spend|optimi[sz]e|care|jump through|revert|work around)\b",
    ),
    neg(
        Declines,
        r"^(?P<cue>not going to|won't|no plans to|no plan to) (?:fix|chase|revert|pursue|bother|worry)\b",
    ),
    neg(
        Declines,
        r"\bnot (?P<cue>worth) (?:it|fixing|chasing|the effort|the trouble|the complexity|worrying|pursuing|optimi[sz]ing|investigating|spending|a revert|reverting|bothering|addressing|caring)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>nothing to fix|nothing we can do|nothing we could do|nothing we should do|nothing that can be done|nothing to be done|nothing to worry about|nothing actionable|nothing worth fixing|not much to fix|not much we can do|not much that can be done|not anything to fix|no real problem|no real issue)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>don't think|do not think|don't believe|do not believe|don't see|do not see) (?:that )?(?:there's|there is) (?:anything|much|something) (?:{w} ){0,2}(?:to fix|we can do|we should do|we need to do|to be done)\b",
    ),
    p(
        Declines,
        r"\b(?:small|minor|negligible|tiny|marginal|insignificant|low) (?P<cue>enough to ignore|enough to live with|enough to accept|enough not to worry|enough not to care|enough not to matter)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>too small|too minor|negligible|insignificant) to (?:worry|care|matter|bother|chase|fix|revert)\b",
    ),
    neg(
        Declines,
        r"\b(?:i|we)(?: really)? (?P<cue>don't worry|do not worry|wouldn't worry|would not worry|won't worry|don't care|do not care|wouldn't care|won't care) (?:too much |much |a lot )?about (?:it|this|that|the|such|these|those)\b",
    ),
    p(
        Declines,
        r"\b(?:works|working|behaves|is working|performs) (?P<cue>as intended|as designed)\b",
    ),
    p(
        Declines,
        r"\b(?:please )?(?P<cue>ignore this|ignore the|ignore that|ignore our|ignore my|disregard this|disregard the|disregard that|disregard our|disregard my) (?:{w} )?(?:report|regression|result|email|mail|one)\b",
    ),
    guess(
        Declines,
        true,
        r"\b(?:not|isn't|is not|hardly) (?:a |an )?(?:very )?(?P<cue>real world|real-world|realistic|representative) (?:workload|benchmark|use case|usecase|scenario|test|load|case)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?:a|an|this|the|very|rather|quite|pretty|fairly) (?P<cue>artificial|synthetic|pathological|contrived|unrealistic|corner-case|corner case) (?:{w} )?(?:benchmark|test|workload|case|load|micro-?benchmark)\b",
    ),
    p(
        Declines,
        r"\b(?:that|this|it)(?:'s| is) (?:just |simply )?the (?P<cue>price) (?:of|for)\b",
    ),
    p(
        Declines,
        r"\b(?:i|we)(?:'m| am| are|'re) (?:{w} )?(?P<cue>fine with|ok with|okay with|happy with|comfortable with) (?:the|this|that|it|a|such|some) (?:{w} ){0,2}(?:regression|slowdown|cost|trade-?off|overhead|result|hit|loss|drop|penalty)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?:some|other|certain|most|many) (?:{w} )?(?P<cue>workloads|benchmarks) (?:will |may |might |can |do |would |could )?(?:win|lose|regress|benefit|suffer|gain|get slower|get faster)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>win some|wins some|gain some|gains some),? (?:and |you )?(?:lose|loses) some\b",
    ),
    p(
        Declines,
        r"\b(?:revert|reverting|undo|undoing|backing out) (?:it|this|that|the {w}|the patch|the commit|the change) (?:would|will|is going to|would just) (?P<cue>reintroduce|bring back|re-introduce|reopen|re-open)\b",
    ),
    // The robot's team (or anyone) takes the report back.
    p(
        Withdraws,
        r"\b(?:sorry|apologize|apologise|apologies) (?:{w} ){0,2}(?:for|about) (?:the|this|that|our|my|any) (?:{w} )?(?P<cue>noise|false alarm|false positive|false report|wrong report|invalid report|bogus report)\b",
    ),
    p(
        Withdraws,
        r"\b(?:a|an|was a|is a) (?P<cue>false alarm|false positive)\b",
    ),
    p(
        Withdraws,
        r"\b(?:the|our) (?:{w} )?(?P<cue>test setup|test environment|test machine|test box|testbox|test config|test configuration|test infrastructure|test harness|test platform|test system|testing environment|testing setup|benchmark setup|test env) (?:was|is|had|has) (?:{w} ){0,3}(?:wrong|broken|faulty|misconfigured|problematic|unstable|at fault|an issue|a problem|a bug|the cause|the culprit)\b",
    ),
    neg(
        Withdraws,
        r"\b(?:the |this |our )?(?P<cue>report is invalid|report was invalid|report is bogus|report was bogus|result is bogus|result was bogus|results are bogus|bisect is bogus|bisect was bogus|bisection is bogus|bisection was bogus|report is not valid|report was not valid|result is unreliable|result was unreliable|results are unreliable|results were unreliable|data is unreliable|data was unreliable|regression is bogus|regression was bogus|report is unreliable)\b",
    ),
    neg(
        Withdraws,
        r"\b(?P<cue>re-run|rerun|re-ran|reran|re-running|rerunning|re-tested|retested|re-testing|retesting|retest|re-test|run again|ran again|tested again|test again)(?: {w}){0,14} (?:no|not|didn't|couldn't|cannot|can't|don't) (?:{w} ){0,3}(?:regression|difference|drop|slowdown|degradation)\b",
    ),
    // A fix is promised.
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|i'm going to|i am going to|we're going to|we are going to|i plan to|we plan to|i intend to|let me) (?:{w} ){0,2}(?P<cue>send a fix|send a patch|post a fix|post a patch|send out a fix|send out a patch|send a v2|post a v2|send v2|post v2|send a new version|post a new version|prepare a fix|prepare a patch|submit a fix|submit a patch|cook up a fix|cook up a patch|send the fix|send the patch|send a revert|post a revert|send a proper patch|send a formal patch|send a proper fix|write a fix|write a patch|come up with a fix|come up with a patch)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'm|i am|we're|we are|i've been|we've been) (?:{w} )?(?P<cue>working on) (?:a |the )?(?:{w} )?(?:fix|patch|solution)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>i'll fix|i will fix|we'll fix|we will fix|i'll address|we'll address|i will address) (?:it|this|that|the regression|the issue)\b",
    ),
    // A revert (or a drop of the culprit) is promised or proposed.
    p(
        WillRevert,
        r"\b(?:i|we|let's|let us|i'd|we'd|i'll|we'll)(?: will| should| can| could| need to| have to| must| better| would| might)? (?:just |simply |probably |likely |then |rather |now |better |go ahead and )?(?P<cue>revert|back out) (?:it|this|that|them|the (?:{w} )?(?:patch|commit|change|series|culprit)|commit [0-9a-f]{7,40}|[0-9a-f]{7,40})\b",
    ),
    p(
        WillRevert,
        r"\b(?:i|we|let's|let us|i'd|we'd|i'll|we'll)(?: will| should| can| could| need to| have to| must| better| would| might)? (?:just |simply |probably |likely |then |rather |now |better |go ahead and )?(?P<cue>drop it|drop this|drop that|drop them|drop the patch|drop the commit|drop the series|drop the change|drop your patch|drop your series)\b",
    ),
    guess(
        WillRevert,
        false,
        r"\b(?:i|we) (?:think|guess|suggest|propose) (?:we |you )?(?:should |could |can )?(?:just )?(?P<cue>revert)\b",
    ),
    // The robot tested a version the series has moved past.
    p(
        Superseded,
        r"\b(?:that|this|the) (?:link|report|patch|one|commit|version|series) is (?:the|an|my|your) (?P<cue>original|old|older|earlier|previous|first|outdated|stale|obsolete) (?:v[0-9]+ |rfc )?(?:patch|version|revision|posting|one|series)\b",
    ),
    p(
        Superseded,
        r"\b(?:bot|robot|lkp|0-day|0day|report|regression|degradation|slowdown)\b(?:[^.]{0,80})\b(?:with|on|against|for|of) (?:the|an|my|your) (?P<cue>rfc|original|old|older|earlier|previous|first|outdated|stale|obsolete) (?:{w} )?(?:version|revision|iteration|posting|series|v[0-9]+)\b",
    ),
    p(
        Superseded,
        r"\b(?:i|we)(?:'ve| have)? (?:already |just |since )?(?P<cue>sent|posted|submitted) (?:out )?(?:a |an |the )?(?:new|newer|another|updated|revised|second|reworked|v[0-9]+) (?:version|patch|revision|series|iteration|one|spin)\b",
    ),
    // The culprit's series is set aside.
    p(
        SetsAside,
        r"\b(?:put|leave|keep|set|park|place|putting|leaving) (?:{w} ){0,3}(?P<cue>on hold|aside|on the back-burner|on the backburner|on ice)\b",
    ),
    p(
        SetsAside,
        r"\b(?P<cue>hold off) (?:on |with )?(?:{w} ){0,2}(?:this|it|the patch|the series|the change|merging|applying|queueing|queuing)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we)(?:'m| am|'re| are|'ll| will)? (?P<cue>not going to|no longer going to|won't be|will not be|not planning to) (?:pursue|pursuing|push|pushing|merge|merging|apply|applying|queue|queueing|queuing|take|taking|upstream|upstreaming) (?:this|it|the (?:{w} )?(?:patch|series|change|approach|work))\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we)(?:'m| am|'re| are|'ll| will)? (?:not|no longer) (?P<cue>pursue|pursuing|upstreaming) (?:this|it|the (?:{w} )?(?:patch|series|change|approach|work))\b",
    ),
    p(
        SetsAside,
        r"\b(?:i|we)(?:'ll| will|'d| would| should|'re going to| are going to|'m going to| am going to)? (?:{w} )?(?P<cue>abandon|withdraw|retract) (?:this|the|my|our|that) (?:{w} )?(?:patch|series|approach|change|idea|proposal|rfc|one)\b",
    ),
    p(
        SetsAside,
        r"\b(?:this|the|that|my|our) (?:{w} )?(?:patch|series|approach|change|work) (?:is|was|has been) (?:{w} )?(?P<cue>abandoned|shelved|withdrawn|on hold)\b",
    ),
    // Leanings: what reads like a decline or a dispute without saying one
    // (a question for a person; dropped when the family itself is read).
    guess(
        MaybeDeclines,
        false,
        r"\b(?:regression|slowdown|drop|cost|overhead|result|results|numbers|hit|penalty|performance)\b(?:[^.]{0,60})\b(?P<cue>expected|intended|intentional|deliberate|acceptable|inevitable|unavoidable|by design|trade-off|tradeoff|worth it|correctness)\b",
    ),
    guess(
        MaybeDeclines,
        false,
        r"\b(?P<cue>expected|intended|intentional|deliberate|acceptable|inevitable|unavoidable|by design|trade-off|tradeoff|correctness|data integrity)\b(?:[^.]{0,60})\b(?:regression|slowdown|drop|cost|overhead|hit|penalty|performance)\b",
    ),
    guess(
        MaybeDisputes,
        false,
        r"\b(?P<cue>strange|odd|weird|surprising|puzzling|unexpected|doesn't make sense|does not make sense|can't explain|cannot explain|no idea why)\b(?:[^.]{0,80})\b(?:patch|commit|change|regression|result|results|numbers)\b",
    ),
    guess(
        MaybeDisputes,
        false,
        r"\b(?:patch|commit|change|it)\b (?:{w} ){0,3}(?:shouldn't|should not|wouldn't|would not|doesn't|does not)(?: really| even| intend to)? (?P<cue>change|affect|matter|make any difference|make a difference|have any impact|have an impact|impact)\b",
    ),
];

/// The shared parts of the patterns.
fn expand(pattern: &str) -> String {
    pattern
        .replace("{w}", r"[[:word:]'-]+")
        .replace(
            "{thing}",
            r"(?:regression|slowdown|slow-down|drop|degradation|cost|overhead|hit|penalty|loss|behaviou?r|result|difference|impact|change)",
        )
        .replace(r"\b", r"(?-u:\b)")
}

/// The compiled phrases, in [`PHRASES`] order.
pub static COMPILED: LazyLock<Vec<(Phrase, Regex)>> = LazyLock::new(|| {
    PHRASES
        .iter()
        .map(|ph| {
            let re = Regex::new(&expand(ph.pattern)).expect("valid phrase");
            (*ph, re)
        })
        .collect()
});

/// The literal alternatives of a phrase's cue group (lower case).
pub fn cue_literals(pattern: &str) -> Vec<String> {
    use regex_syntax::hir::literal::{ExtractKind, Extractor};
    use regex_syntax::hir::{Hir, HirKind};
    fn find(h: &Hir) -> Option<&Hir> {
        match h.kind() {
            HirKind::Capture(c) if c.name.as_deref() == Some("cue") => Some(&c.sub),
            HirKind::Concat(hs) => hs.iter().find_map(find),
            HirKind::Capture(c) => find(&c.sub),
            _ => None,
        }
    }
    let hir = regex_syntax::ParserBuilder::new()
        .unicode(false)
        .utf8(false)
        .build()
        .parse(&expand(pattern))
        .expect("valid phrase");
    let Some(cue) = find(&hir) else {
        return Vec::new();
    };
    let seq = Extractor::new().kind(ExtractKind::Prefix).extract(cue);
    seq.literals()
        .into_iter()
        .flatten()
        .filter(|l| l.is_exact())
        .map(|l| String::from_utf8_lossy(l.as_bytes()).into_owned())
        .collect()
}

/// The prefilter keys: the cue literals of every phrase, none beginning
/// another (a literal another begins is covered by it). Every match of a
/// phrase holds a cue literal, so it holds one of these.
pub fn cue_keys() -> Vec<String> {
    let cues: Vec<Vec<String>> = PHRASES.iter().map(|ph| cue_literals(ph.pattern)).collect();
    keys_of(&cues)
}

/// [`cue_keys`] of the phrases' cue literals.
fn keys_of(cues: &[Vec<String>]) -> Vec<String> {
    let mut lits: Vec<&String> = cues.iter().flatten().collect();
    lits.sort();
    lits.dedup();
    let mut keys: Vec<String> = Vec::new();
    for l in lits {
        // Sorted: a literal's prefixes come before it.
        if !keys.iter().any(|k| l.starts_with(k.as_str())) {
            keys.push(l.clone());
        }
    }
    keys
}

/// The search for [`cue_keys`], and for each key the phrases whose cue it
/// begins.
struct Keyed {
    /// The keys as one DFA: a table look-up a byte. It has no prefilter:
    /// the keys begin with most letters.
    dfa: aho_corasick::dfa::DFA,
    /// For each key, the phrases (indexes into [`PHRASES`]) whose cue it
    /// begins, each with its cue literals that begin with the key.
    cues: Vec<Vec<(usize, Vec<String>)>>,
}

static KEYED: LazyLock<Keyed> = LazyLock::new(|| {
    let cues: Vec<Vec<String>> = PHRASES.iter().map(|ph| cue_literals(ph.pattern)).collect();
    let keys = keys_of(&cues);
    let dfa = aho_corasick::dfa::DFA::builder()
        .match_kind(aho_corasick::MatchKind::Standard)
        .prefilter(false)
        .build(&keys)
        .expect("valid keys");
    let of_key = keys
        .iter()
        .map(|k| {
            cues.iter()
                .enumerate()
                .filter_map(|(i, lits)| {
                    let begun: Vec<String> = lits
                        .iter()
                        .filter(|l| l.starts_with(k.as_str()))
                        .cloned()
                        .collect();
                    (!begun.is_empty()).then_some((i, begun))
                })
                .collect()
        })
        .collect();
    Keyed { dfa, cues: of_key }
});

/// Calls `f(start, end, key)` for every cue key in lower-cased `text`,
/// overlapping keys each, by their end (keys ending at one byte longest
/// first), until `f` returns `false`: for [`read_lowered`], whose `keys`
/// are the keys found here.
pub fn for_each_cue(text: &[u8], mut f: impl FnMut(usize, usize, usize) -> bool) {
    scan_cues(&KEYED.dfa, text, &mut f);
}

/// [`for_each_cue`] with its automaton as an argument.
///
/// A text of a few hundred bytes is read by two runs of the automaton at
/// once, one over each half, stepped together: a step waits for the table
/// look-up of the one before, so two independent runs take about the time
/// of one. The second run starts the longest key's length before its half
/// (from there on its state is the one a run from the start would have:
/// a state stands for at most that many bytes before it), and reports
/// only the keys ending in its half, after the first run's: `f` sees the
/// keys in the same order as from one run.
fn scan_cues(
    dfa: &aho_corasick::dfa::DFA,
    text: &[u8],
    f: &mut impl FnMut(usize, usize, usize) -> bool,
) {
    use aho_corasick::automaton::Automaton;
    /// Shorter texts are read by one run.
    const TWO_RUNS_FROM: usize = 256;
    let Ok(start) = dfa.start_state(aho_corasick::Anchored::No) else {
        return;
    };
    let n = text.len();
    if n < TWO_RUNS_FROM {
        run_cues(dfa, text, 0, start, 0, f);
        return;
    }
    let mid = n / 2;
    let (mut at_a, mut sid_a) = (0, start);
    let (mut at_b, mut sid_b) = (mid - dfa.max_pattern_len().min(mid), start);
    // The second run's keys, until the first run has reported its own.
    let mut later: Vec<(usize, usize, usize)> = Vec::new();
    // The second run is the longer one.
    while at_a < mid {
        let steps = (mid - at_a).min(n - at_b);
        let (Some(a), Some(b)) = (text.get(at_a..at_a + steps), text.get(at_b..at_b + steps))
        else {
            return;
        };
        let (i, next_a, next_b) = both_to_special(dfa, a, b, sid_a, sid_b);
        (sid_a, sid_b) = (next_a, next_b);
        let taken = if i == steps { steps } else { i + 1 };
        at_a += taken;
        at_b += taken;
        if i == steps {
            continue;
        }
        if dfa.is_special(sid_a) && !report(dfa, sid_a, at_a, f) {
            return;
        }
        if dfa.is_special(sid_b) && at_b > mid {
            let mut keep = |s, e, k| {
                later.push((s, e, k));
                true
            };
            if !report(dfa, sid_b, at_b, &mut keep) {
                return;
            }
        }
    }
    for (s, e, k) in later {
        if !f(s, e, k) {
            return;
        }
    }
    run_cues(dfa, text, at_b, sid_b, mid, f);
}

/// Runs `dfa` from state `sid` at byte `at` of `text` to its end, calling
/// `f` with the keys ending after byte `after`; `false` when `f` stopped it
/// (or the automaton died, which an unanchored search of every key does
/// not).
fn run_cues(
    dfa: &aho_corasick::dfa::DFA,
    text: &[u8],
    mut at: usize,
    mut sid: aho_corasick::automaton::StateID,
    after: usize,
    f: &mut impl FnMut(usize, usize, usize) -> bool,
) -> bool {
    while let Some(rest) = text.get(at..).filter(|r| !r.is_empty()) {
        let (i, next) = to_special(dfa, rest, sid);
        sid = next;
        if i == rest.len() {
            break;
        }
        at += i + 1;
        if at > after && !report(dfa, sid, at, f) {
            return false;
        }
    }
    true
}

/// Calls `f` with the keys of special state `sid` reached at byte `end`
/// (its matches: without a prefilter only the match states and a dead
/// state are special); `false` when `f` stopped, or at a dead state.
fn report(
    dfa: &aho_corasick::dfa::DFA,
    sid: aho_corasick::automaton::StateID,
    end: usize,
    f: &mut impl FnMut(usize, usize, usize) -> bool,
) -> bool {
    use aho_corasick::automaton::Automaton;
    if !dfa.is_match(sid) {
        return false;
    }
    (0..dfa.match_len(sid)).all(|k| {
        let key = dfa.match_pattern(sid, k);
        f(end - dfa.pattern_len(key), end, key.as_usize())
    })
}

/// Two runs of `dfa` stepped together over `a` and `b` (from states `sa`
/// and `sb`) to the first step at which either enters a special state: the
/// step's index and both states, or the shorter length and the states
/// there.
#[inline(never)]
fn both_to_special(
    dfa: &aho_corasick::dfa::DFA,
    a: &[u8],
    b: &[u8],
    mut sa: aho_corasick::automaton::StateID,
    mut sb: aho_corasick::automaton::StateID,
) -> (
    usize,
    aho_corasick::automaton::StateID,
    aho_corasick::automaton::StateID,
) {
    use aho_corasick::automaton::Automaton;
    let n = a.len().min(b.len());
    for (i, (&x, &y)) in a.iter().zip(b).enumerate() {
        sa = dfa.next_state(aho_corasick::Anchored::No, sa, x);
        sb = dfa.next_state(aho_corasick::Anchored::No, sb, y);
        if dfa.is_special(sa) | dfa.is_special(sb) {
            return (i, sa, sb);
        }
    }
    (n, sa, sb)
}

/// Runs `dfa` from `sid` over `text` to the first byte leading to a
/// special state: its index and that state, or `text.len()` and the state
/// at the end. Apart from the reading of matches, its few registers stay
/// out of memory (one loop doing both loaded them from the stack a byte),
/// and it steps four bytes a turn.
#[inline(never)]
fn to_special(
    dfa: &aho_corasick::dfa::DFA,
    text: &[u8],
    mut sid: aho_corasick::automaton::StateID,
) -> (usize, aho_corasick::automaton::StateID) {
    use aho_corasick::automaton::Automaton;
    let mut chunks = text.chunks_exact(4);
    let mut i = 0;
    for chunk in &mut chunks {
        for (k, &b) in chunk.iter().enumerate() {
            sid = dfa.next_state(aho_corasick::Anchored::No, sid, b);
            if dfa.is_special(sid) {
                return (i + k, sid);
            }
        }
        i += 4;
    }
    for (k, &b) in chunks.remainder().iter().enumerate() {
        sid = dfa.next_state(aho_corasick::Anchored::No, sid, b);
        if dfa.is_special(sid) {
            return (i + k, sid);
        }
    }
    (text.len(), sid)
}

/// True when lower-cased `text` holds a cue key: only then can a phrase
/// match it.
pub fn cued(lower: &str) -> bool {
    let mut any = false;
    for_each_cue(lower.as_bytes(), |_, _, _| {
        any = true;
        false
    });
    any
}

/// A sentence read as a whole: what it is besides its phrases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Reading {
    question: bool,
}

/// Words that make a statement a guess.
static HEDGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:probably|likely|maybe|perhaps|possibly|might|may|seems?|seemed|appears?|appeared|not sure|i guess|i suspect|presumably|could be|suspect|wonder|unclear|not clear)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Words that deny what follows.
static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:not|never|no longer|hardly|neither|nor|without)(?-u:\b)|n't(?-u:\b)")
        .expect("valid regex")
});

/// Words that open a condition: what follows them until the clause ends is
/// supposed, not said.
static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:if|unless|whether|assuming|suppose|supposing|in case|provided|even if)(?-u:\b)",
    )
    .expect("valid regex")
});

/// [`CONDITION`] at the start of the text only (a sentence opening with a
/// condition): whether [`CONDITION`]'s first match starts there.
static CONDITION_FIRST: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(&format!("^(?:{})", CONDITION.as_str())).expect("valid regex"));

/// After a decline: "the regression is expected to go away" promises a fix.
static DECLINE_CANCEL_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^ to (?:be fixed|be resolved|go away|disappear|recover|improve|be addressed|change)",
    )
    .expect("valid regex")
});

/// Where the clause holding byte `at` of `s` begins.
fn clause_start(s: &str, at: usize) -> usize {
    let head = s.get(..at).unwrap_or("");
    head.rfind([',', ';', ':', '(', ')'])
        .map(|i| i + 1)
        .or_else(|| head.rfind(" - ").map(|i| i + 3))
        .or_else(|| head.rfind(" but ").map(|i| i + 5))
        .or_else(|| head.rfind(" and ").map(|i| i + 5))
        .unwrap_or(0)
}

/// The last `n` words before byte `at` of `s`, within its clause.
fn words_before(s: &str, at: usize, n: usize) -> String {
    let from = clause_start(s, at);
    let head = s.get(from..at).unwrap_or("");
    let words: Vec<&str> = head.split_whitespace().collect();
    let k = words.len().saturating_sub(n);
    words[k..].join(" ")
}

/// One phrase found in a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// What it says.
    pub kind: SignalKind,
    /// Said as a guess: hedged ("probably noise") or a tentative phrase.
    pub tentative: bool,
}

/// What a sentence says (lower-case text expected): every phrase that
/// matches and stands in its place. A question says nothing; neither does a
/// phrase inside a condition ("if this is expected, ..."), nor one denied
/// by a negation before it ("I don't think this is acceptable"). A hedge
/// before it or in it makes it tentative.
pub fn read(sentence: &str) -> Vec<Found> {
    let lower = sentence
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}'], "'");
    let mut keys: Vec<(usize, usize)> = Vec::new();
    for_each_cue(lower.as_bytes(), |start, _, key| {
        keys.push((start, key));
        true
    });
    read_lowered(&lower, keys)
}

/// [`read`] of a sentence already lower-cased as [`read`] lower-cases it,
/// given where the cue keys it holds begin and which they are
/// ([`for_each_cue`] inside it, offsets from its start, in any order).
pub fn read_lowered(s: &str, keys: impl IntoIterator<Item = (usize, usize)>) -> Vec<Found> {
    if says_nothing(s) {
        return Vec::new();
    }
    // The phrases whose cues the sentence holds, in book order: a phrase's
    // cue literal begins with a key, where the key is found.
    let of_key = &KEYED.cues;
    let mut which: Vec<usize> = Vec::new();
    for (start, key) in keys {
        let Some(rest) = s.get(start..) else {
            continue;
        };
        for (phrase, lits) in of_key.get(key).into_iter().flatten() {
            if lits.iter().any(|l| rest.starts_with(l.as_str())) {
                which.push(*phrase);
            }
        }
    }
    which.sort_unstable();
    which.dedup();
    read_phrases(s, which)
}

/// Whether lower-cased sentence `s` says nothing whatever phrases it
/// holds: a question, or a sentence opening with a condition, which
/// supposes all it says ("if this is real, the regression is expected").
fn says_nothing(s: &str) -> bool {
    let trimmed =
        s.trim_end_matches(|c: char| c == ')' || c == '"' || c == '\'' || c.is_whitespace());
    let reading = Reading {
        question: trimmed.ends_with('?'),
    };
    reading.question || CONDITION_FIRST.is_match(s.trim_start())
}

/// What the phrases `which` (indexes into [`PHRASES`], ascending) find in
/// sentence `s` (see [`read_lowered`], which passes those whose cue the
/// sentence holds: no other can match).
fn read_phrases(s: &str, which: Vec<usize>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for (ph, re) in which.into_iter().filter_map(|i| COMPILED.get(i)) {
        for m in re.find_iter(s) {
            let from = clause_start(s, m.start());
            let clause_head = s.get(from..m.start()).unwrap_or("");
            if CONDITION.is_match(clause_head) {
                continue;
            }
            if !ph.negative {
                let before = words_before(s, m.start(), 3);
                if NEGATION.is_match(m.as_str()) || NEGATION.is_match(&before) {
                    continue;
                }
            }
            if ph.kind == Declines && DECLINE_CANCEL_AFTER.is_match(s.get(m.end()..).unwrap_or(""))
            {
                continue;
            }
            let tentative = ph.tentative
                || HEDGE.is_match(m.as_str())
                || HEDGE.is_match(&words_before(s, m.start(), 6));
            match out.iter_mut().find(|f| f.kind == ph.kind) {
                // A sure reading of a kind wins over a guess of it.
                Some(f) => f.tentative &= tentative,
                None => out.push(Found {
                    kind: ph.kind,
                    tentative,
                }),
            }
            break;
        }
    }
    // A leaning says nothing beside the reading of its family.
    let read_kind = |k: SignalKind| out.iter().any(|f| f.kind == k);
    let declines = read_kind(Declines);
    let disputes = [Disputes, CannotReproduce, Noise, Layout, Withdraws]
        .into_iter()
        .any(read_kind);
    out.retain(|f| match f.kind {
        MaybeDeclines => !declines,
        MaybeDisputes => !disputes,
        _ => true,
    });
    out
}

/// The first commit id a sentence names (7 to 40 hex digits with a digit
/// and a letter), for telling which report or patch it is about.
pub fn mentioned_commit(sentence: &str) -> Option<String> {
    static ID: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"(?-u:\b)[0-9a-f]{7,40}(?-u:\b)").expect("valid regex"));
    ID.find_iter(sentence)
        .map(|m| m.as_str())
        .find(|id| {
            id.bytes().any(|b| b.is_ascii_digit()) && id.bytes().any(|b| b.is_ascii_alphabetic())
        })
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<(SignalKind, bool)> {
        read(s).into_iter().map(|f| (f.kind, f.tentative)).collect()
    }

    #[test]
    fn the_phrases_whose_cues_a_sentence_holds_read_it_as_all_of_them_do() {
        let mut seed = 13u64;
        let mut next = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize % n
        };
        // Words of the phrases, sentences holding them, and what separates
        // them.
        let mut words: Vec<&str> = PHRASES
            .iter()
            .flat_map(|ph| {
                ph.pattern
                    .split(|c: char| !c.is_ascii_alphabetic() && c != '\'')
            })
            .filter(|w| w.len() > 1)
            .collect();
        let sentences = [
            "the regression is expected",
            "this slowdown was expected after all",
            "strange that the patch",
            "the commit should not change anything",
            "it doesn't matter",
            "that link is the old version",
            "the old code was buggy",
            "i sent a new version",
            "performance is back",
            "the regression is gone",
            "we could not reproduce it",
            "it is just noise",
            "i won't fix it",
            "not worth it",
            "not a real regression",
        ];
        for _ in 0..20 {
            words.extend(sentences);
        }
        let seps = [" ", " ", " ", ", ", "\t", "-", " 4c40d6efc8 "];
        let mut found = 0;
        for _ in 0..3000 {
            let mut s = String::new();
            for _ in 0..next(12) {
                s.push_str(words[next(words.len())]);
                s.push_str(seps[next(seps.len())]);
            }
            let all = if says_nothing(&s) {
                Vec::new()
            } else {
                read_phrases(&s, (0..PHRASES.len()).collect())
            };
            assert_eq!(read(&s), all, "{s:?}");
            found += all.len();
        }
        assert!(found > 500, "{found}");
    }

    #[test]
    fn the_key_scan_reports_every_key_as_one_overlapping_search_does() {
        let keys = cue_keys();
        let reference = aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(&keys)
            .expect("valid keys");
        let mut next = crate::evidence::picker(9);
        let words = [
            "the ",
            "regression",
            " is gone",
            "old",
            "er ",
            "not ",
            "going to",
            "hold",
            "x",
            "reproduce",
            ". ",
            "won't",
            "\n",
            "performance is back",
            "re-run",
        ];
        for round in 0..400 {
            // Texts around the length where two runs take over, and longer.
            let len = [10, 200, 255, 256, 257, 300, 1000, 5000][round % 8];
            let mut text = String::new();
            while text.len() < len {
                text.push_str(words[next(words.len())]);
            }
            let want: Vec<(usize, usize, usize)> = reference
                .find_overlapping_iter(&text)
                .map(|m| (m.start(), m.end(), m.pattern().as_usize()))
                .collect();
            let mut got = Vec::new();
            for_each_cue(text.as_bytes(), |s, e, k| {
                got.push((s, e, k));
                true
            });
            assert_eq!(got, want, "{text:?}");
            // Stopping at the n-th key stops there.
            let stop = 1 + next(want.len() + 1);
            let mut seen = Vec::new();
            for_each_cue(text.as_bytes(), |s, e, k| {
                seen.push((s, e, k));
                seen.len() < stop
            });
            assert_eq!(seen, want[..stop.min(want.len())], "{text:?}");
        }
    }

    #[test]
    fn every_phrase_has_a_cue_of_literals_in_each_match() {
        for ph in PHRASES {
            let lits = cue_literals(ph.pattern);
            assert!(!lits.is_empty(), "no literal cue in {}", ph.pattern);
            assert!(
                lits.iter().all(|l| l.len() >= 3),
                "a cue literal shorter than 3 in {}: {lits:?}",
                ph.pattern
            );
        }
        let keys = cue_keys();
        for ph in PHRASES {
            for l in cue_literals(ph.pattern) {
                assert!(
                    keys.iter().any(|k| l.contains(k.as_str())),
                    "no key in the cue {l:?}"
                );
            }
        }
    }

    #[test]
    fn each_family_reads_its_sentences() {
        let cases: &[(&str, SignalKind, bool)] = &[
            (
                "With the debug patch, the performance is restored.",
                ConfirmsFix,
                false,
            ),
            (
                "The regression is gone after applying the patch.",
                ConfirmsFix,
                false,
            ),
            ("The bisect seems to have gone wrong.", Disputes, true),
            ("This is not a real regression.", Disputes, false),
            ("That change cannot be responsible for it.", Disputes, false),
            (
                "I don't see how this patch could cause a slowdown in fsmark.",
                Disputes,
                false,
            ),
            ("This has nothing to do with the patch.", Disputes, false),
            (
                "This code is not even compiled in the test config.",
                Disputes,
                true,
            ),
            (
                "We could not reproduce it on our machines.",
                CannotReproduce,
                false,
            ),
            (
                "I see no difference with and without the commit.",
                CannotReproduce,
                false,
            ),
            ("It is just noise.", Noise, false),
            ("Looks like a code layout change.", Layout, false),
            ("This regression is expected.", Declines, false),
            (
                "This change in performance is expected to ensure proper entropy.",
                Declines,
                false,
            ),
            (
                "So practically speaking, this is not a big deal.",
                Declines,
                false,
            ),
            (
                "The commit fixed a security hole, so it needed to go in.",
                Declines,
                false,
            ),
            (
                "There should be no noticeable impact on users.",
                Declines,
                false,
            ),
            (
                "That commit really shouldn't change anything noticeable.",
                Disputes,
                false,
            ),
            (
                "Contrary to what is indicated in the report, it is a slowdown.",
                Disputes,
                false,
            ),
            ("That is how there is an apparent win.", Disputes, false),
            ("The slowdown is the price of correctness.", Declines, false),
            ("We can live with it.", Declines, false),
            (
                "It's a trade-off between latency and throughput.",
                Declines,
                false,
            ),
            ("The old code was simply buggy.", Declines, false),
            ("We won't chase this one.", Declines, false),
            ("It is not worth fixing.", Declines, false),
            ("There is nothing to fix here.", Declines, false),
            ("The drop is small enough to ignore.", Declines, false),
            (
                "I don't care about this benchmark result much, honestly; I don't worry about it.",
                Declines,
                false,
            ),
            ("It works as intended.", Declines, false),
            (
                "Reverting it would reintroduce the deadlock.",
                Declines,
                false,
            ),
            ("Sorry for the noise.", Withdraws, false),
            ("Please ignore this report.", Declines, false),
            (
                "It turned out our test machine was misconfigured.",
                Withdraws,
                false,
            ),
            (
                "After we re-ran the test several times we see no regression any more.",
                Withdraws,
                false,
            ),
            ("I'll send a fix shortly.", WillFix, false),
            ("I'm working on a patch.", WillFix, false),
            ("Let's just revert it.", WillRevert, false),
            ("I'll drop the patch from my tree.", WillRevert, false),
            ("Let's put this series on hold.", SetsAside, false),
            ("I'm not going to pursue this approach.", SetsAside, false),
            ("A rather artificial benchmark.", Declines, true),
            (
                "That link is the original v1 patch which is not correct.",
                Superseded,
                false,
            ),
            (
                "The robot's report is against the earlier version of the series.",
                Superseded,
                false,
            ),
            (
                "I have sent out another patch which avoids it.",
                Superseded,
                false,
            ),
        ];
        for (s, k, t) in cases {
            let got = kinds(s);
            assert!(
                got.contains(&(*k, *t)),
                "{s:?}: {got:?}, expected {k:?} tentative={t}"
            );
        }
    }

    #[test]
    fn questions_conditions_and_denials_say_nothing() {
        for s in [
            "Is this regression expected?",
            "Is this expected?",
            "If this is real, the regression is expected.",
            "If the regression is expected, we can ignore it.",
            "This is not acceptable; the regression is not expected.",
            "I don't think this regression is acceptable.",
            "That won't fix it.",
            "The patch won't fix the regression.",
            "It's not worth the cost.",
            "The regression is expected to go away with the next patch.",
            "Could you test whether the patch fixes the regression?",
            "I don't think we should revert it.",
            "We are not happy with this regression.",
            "It's not a big deal to fix it properly.",
            "Is this change in performance expected?",
            "Is it a big deal?",
            "If there is no noticeable impact on users, fine.",
            "The patch should not change anything?",
        ] {
            let got = kinds(s);
            let decides = got.iter().any(|(k, _)| {
                matches!(
                    k,
                    Declines | WillRevert | ConfirmsFix | Withdraws | Disputes
                )
            });
            assert!(!decides, "{s:?}: {got:?}");
        }
    }

    #[test]
    fn a_hedge_makes_a_reading_tentative() {
        assert_eq!(
            kinds("This regression is probably expected."),
            vec![(Declines, true)]
        );
        assert_eq!(
            kinds("This regression is expected."),
            vec![(Declines, false)]
        );
        assert_eq!(kinds("It seems this is just noise."), vec![(Noise, true)]);
    }

    #[test]
    fn the_prefilter_passes_every_sentence_a_phrase_reads() {
        let texts = [
            "With the debug patch, the performance is restored.",
            "We can live with it.",
            "Let's put this series on hold.",
            "It turned out our test machine was misconfigured.",
            "Sorry for the noise.",
            "The bisect seems to have gone wrong.",
        ];
        for t in texts {
            let l = t.to_lowercase();
            assert!(cued(&l), "{t}");
            assert!(!read(t).is_empty(), "{t}");
        }
    }

    #[test]
    fn a_sentence_names_a_commit() {
        assert_eq!(
            mentioned_commit("the 4c40d6efc8 report is bogus"),
            Some("4c40d6efc8".into())
        );
        assert_eq!(
            mentioned_commit("deadbeef is a word, 1234567 a number"),
            None
        );
    }
}
