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
//! ([`cue_keys`]). Besides them, `QUESTIONS` lists what a yes or a no
//! says to a question a reply quotes ([`answered`]), and the reading rules
//! keep their few words (hedges, negations, conditions, denied sayings).

use std::sync::{LazyLock, OnceLock};

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
    /// cost, `{setup_fault}` a fault of the test set-up, each named in one
    /// place for every phrase; one
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
    NotAFix, SetsAside, Superseded, WillFix, WillRevert, Withdraws,
};

/// "I have sent a new version": the words both superseded families start
/// with (said bare, a guess; with what it avoids, a drop).
macro_rules! sent_new_version {
    () => {
        r"\b(?:i|we)(?:'ve| have)? (?:already |just |since )?(?P<cue>sent|posted|submitted) (?:out )?(?:a |an |the )?(?:new|newer|another|updated|revised|second|reworked|v[0-9]+) (?:version|patch|revision|series|iteration|one|spin)\b"
    };
}

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
    p(
        ConfirmsFix,
        r"\b(?P<cue>recover|regain|win back|wins back|won back|claw back|claws back|clawed back|bring back|brings back|brought back|gets back|got back)(?:s|ed|ing)? (?:{w} ){0,3}(?:lost |the lost )?(?:[0-9.]+ ?%|(?:performance|throughput|regression|loss|numbers|iops|bandwidth|score|scores|result|results|drop|slowdown|degradation)\b)",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>gets rid of|got rid of|get rid of|eliminates|eliminated|cures|cured|undoes|undid|wipes out|wiped out) (?:the|this|that|most of the|all of the|all the|most of this|the whole|nearly all the|almost all the) (?:[-+]?[0-9.]+ ?% )?(?:{w} )?(?:regression|slowdown|drop|degradation|loss)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:{w}) (?:is|are|was|were|gets|got|goes|went|comes|came|is now|are now|has gone|have gone) (?:{w} )?(?P<cue>back to|back at|back on par|back in line|back up to|back within|back where) (?:the |its |their |roughly |about |around |almost |nearly |where |what )?(?:level|levels|baseline|base|normal|parity|where|what|the same|before|pre|original|previous|expected|usual|parent|it was|they were|[0-9])",
    ),
    p(
        ConfirmsFix,
        r"\b(?:with|after|applying) (?:the|this|your|that|his|her) (?:{w} )?(?:fix|patch|change|fixup|debug patch)(?:[^.]{0,60})\b(?P<cue>better than|on par with|as good as|in line with|level with) (?:the |its )?(?:base|baseline|parent|original|mainline|unpatched)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>brings|brought|bringing) (?:the |our |it |them |things |everything |performance |throughput |the numbers? |the score |the results? )?(?:{w} ){0,2}back(?:[,.;:!]|$| to| where| up to| on par| in line| again)",
    ),
    p(
        ConfirmsFix,
        r"\b(?:matches|matched|match|equals|equalled|reaches|reached) (?P<cue>the baseline|baseline|the base|the parent|the original numbers|the old numbers|the pre-regression numbers|the numbers before)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>makes up for|made up for|compensates for|compensated for|offsets) (?:the|this|that|most of the|all of the|all the) (?:[-+]?[0-9.]+ ?% )?(?:{w} )?(?:loss|regression|drop|slowdown|degradation)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:throughput|score|numbers|iops|bandwidth|result|results) (?:is|was|are|were|has been|have been|got|gets) (?:fully |mostly |largely |now |completely |entirely )?(?P<cue>restored|recovered)\b",
    ),
    // A loss recovered is the performance back; a regression "restored"
    // is the regression back.
    p(
        ConfirmsFix,
        r"\b(?:loss|losses|drop|slowdown|degradation|hit) (?:is|was|are|were|has been|have been|got|gets) (?:fully |mostly |largely |now |completely |entirely )?(?P<cue>recovered|won back|clawed back|made up)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:regression|drop|slowdown|loss|degradation) (?P<cue>goes from|went from|drops from|dropped from|shrinks from|shrank from|falls from|fell from) [-+]?[0-9.]+ ?% to (?:[-+]?0?\.[0-9]+|[-+]?[01](?:\.[0-9]+)?) ?%",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>return to|returns to|returned to|go back to|goes back to|went back to) (?:the )?(?:baseline|base|normal|parity|pre-regression|previous|original|level|where)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>restores|restored|recovers|recovered|brings|brought) (?:the |most of the |all of the )?[[:word:].'-]+ (?:back )?to (?:the |its |about |around |roughly )?(?:level|baseline|base|normal|parity|same|before|original|previous|parent|[0-9])",
    ),
    p(
        ConfirmsFix,
        r"\b(?:throughput|performance|numbers|iops|bandwidth|score|it) (?P<cue>came right back|came back|comes back|came fully back|came all the way back|bounced back|bounces back)(?:[.,;!]|$| to| again| after| once)",
    ),
    p(
        ConfirmsFix,
        r"\b(?:patch|fix|change|revert|it) (?:does|did) (?P<cue>fix it|fix the regression|fix this|fix things|the trick|restore it|recover it)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:regression|slowdown|drop|degradation|loss|difference|gap)(?: {w}){0,3} (?P<cue>goes away|went away|has gone away|have gone away|had gone away|is gone now)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:performance|throughput|score|numbers|result|results) (?:{w} )?(?P<cue>recover|recovers|go back|goes back|went back) (?:to|back to) (?:the )?(?:base|baseline|parent|original|previous|normal|before|old|pre)\b",
    ),
    // The bisect or the report is doubted.
    p(
        Disputes,
        r"\b(?P<cue>bisect|bisection) (?:went|has gone|is|was|must be|seems|seemed|looks|might be|may be|might have|may have|must have|has) (?:{w} ){0,3}(?:wrong|bogus|incorrect|off|misleading|astray|sideways|awry)\b",
    ),
    neg(
        Disputes,
        r"\bnot (?:a |really a |an |actually a )?(?P<cue>real regression|genuine regression|true regression|actual regression|real problem|real issue|genuine problem|genuine issue)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>wrong bisect|wrong bisection|wrong commit|wrong culprit|wrong suspect|red herring|bogus bisect|bogus bisection|bogus commit|incorrect bisect|incorrect bisection|incorrect commit)\b",
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
        r"\b(?:isn't|is not|wasn't|was not|aren't|not) (?:a |an |really a |actually a |the )?(?P<cue>real regression|genuine regression|true regression|actual regression|real problem|genuine problem|culprit|real slowdown)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>can't|cannot|can not|couldn't|could not|wouldn't|would not|won't|will not) (?:possibly |really |even |obviously |in any way |conceivably )?(?:cause|explain|account for|affect|impact|influence|produce|move|shift|slow down|hurt|cost) (?:a |an |the |this |that |any |such |these |those |a whole |the whole )?(?:{w} ){0,3}(?:regression|slowdown|drop|degradation|numbers|results?|performance|throughput|runtime|change in|the kernel|anything|kernel performance|[0-9.]+ ?%)",
    ),
    p(
        Disputes,
        r"\b(?:i|we) (?:really |seriously |strongly |very much )?(?P<cue>doubt) (?:that )?(?:(?:this|the|that|my|your|our) (?:{w} )?(?:commit|patch|change|series|rename|refactor|cleanup)|commit [0-9a-f]{7,40}|[0-9a-f]{7,40})(?: {w}){0,2} (?:is|was|can|could|would|caused|causes|explains|has)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>hard time believing|hard to believe|difficult to believe|struggle to believe|struggling to believe|find it hard to see|hard to see how|difficult to see how) (?:that )?(?:this|the|that|it|my|your|such a|a) (?:{w} ){0,3}(?:cause|causes|caused|causing|is responsible|could|can|would|did|explains|is the culprit|makes|made|has|had)\b",
    ),
    neg(
        Disputes,
        r"\b(?:can't|cannot|can not|couldn't|could not) (?:possibly |really )?(?P<cue>be pinned on|be blamed on|be attributed to|be down to|be explained by)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>no way) (?:that )?(?:this|that|it|the (?:{w} )?(?:patch|commit|change|code|test|benchmark|workload)|fio|stress-ng|the test|the benchmark|this patch|my patch) (?:{w} ){0,3}(?:goes near|go near|gets near|touches|hits|reaches|calls|exercises|could|can|would|affects)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>not a regression|not really a regression|isn't a regression|not an actual regression|no regression at all)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>rather than a real|instead of a real) (?:slowdown|regression|problem|drop|cost)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>can't|cannot|can not|couldn't|could not) (?:possibly |really |even |obviously )?(?:affect|impact|influence|cause|explain) [[:word:].-]+(?:[.,;!]|$)",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:under|behind|depends on|guarded by|only with|only for) (?P<cue>config_)[a-z0-9_]+(?:[^.]{0,60})\b(?:doesn't|does not|isn't|is not|not|never) (?:{w} )?(?:enable|enabled|set|built|selected|use|used|have)\b",
    ),
    p(
        Disputes,
        r"\b(?:an |the |some )?(?P<cue>innocent) (?:commit|patch|change|bystander)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:i'd|i would|we'd|you should|you'd better|better|i'd rather) (?P<cue>look elsewhere|look somewhere else|look at something else)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:benchmark|harness|test suite|testsuite|stress-ng|fio|tool|test|workload) (?:itself |version )?(?P<cue>changed its|changed their|was updated|was upgraded|got updated|got upgraded|changed between)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>not the kernel|rather than the kernel|instead of the kernel)\b",
    ),
    p(
        Disputes,
        r"(?:^|[,;:] )(?:nope,? |no,? )?(?P<cue>not this commit|not this patch|not my patch|not my commit|not the culprit)(?:[.!,;]|$)",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>bisect|bisection) (?:result )?(?:is|was|seems|looks) (?:{w} )?(?:not correct|not right|not reliable|unreliable|confused|broken|flawed|misleading)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>don't think|do not think) (?:this|the|that) (?:report|bisect|bisection|result|analysis|finding) is (?:right|correct|accurate|valid)\b",
    ),
    p(
        Disputes,
        r"\b(?:patch|commit|change|it) is (?:a |basically a |effectively a |just a )?(?P<cue>no-op|noop) (?:on|for|in|with|here|unless)\b",
    ),
    p(
        Disputes,
        r"\b(?:before|base|baseline|parent|old)(?:'|\x22)? (?:number|result|kernel|run|data point|value) is the (?P<cue>outlier|anomaly|odd one out)\b",
    ),
    neg(
        Disputes,
        r"\b(?:not trust|n't trust|distrust|wouldn't trust|would not trust|don't trust) (?:that|this|the|your) (?P<cue>bisect|bisection)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:it's|it is|this is|that's|that is) (?P<cue>only called|only used|only run|only executed|only reached|called only|used only) (?:at|on|during|when|in|for|once)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>call this|call it|call that|calling this|calling it|calling that|consider this|consider it|considering this|declare this|declaring this) (?:one |report )?(?:bogus|invalid|a false positive|spurious)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>something is off|something's off|something is wrong|something's wrong|something is fishy|something's fishy|something fishy|something odd) (?:with|about|in) (?:the|this|that|your) (?:bisect|bisection|report|result|results|data|numbers|setup|test|testing|measurement)\b",
    ),
    neg(
        Disputes,
        r"\b(?:i|we) (?P<cue>don't buy|do not buy|am not buying|'m not buying|are not buying|'re not buying) (?:(?:this|it|that)(?:[.,;!]|$| one| at all| either| for a second| for a moment)|the (?:{w} )?(?:report|bisect|bisection|result|results|regression|claim|numbers)\b)",
    ),
    guess(
        Disputes,
        true,
        r"^(?:that|this|it) (?P<cue>can't be it|cannot be it|can't be the reason|cannot be the reason|can't be the cause|cannot be the cause)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:code|function|path|helper|branch|feature)(?: in question)? (?P<cue>is dead code|are dead code|is dead|are dead|is compiled out|are compiled out|is not compiled|is never compiled|is unused|are unused|is never built) (?:on|in|for|with|under)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?P<cue>isn't even called|is not even called|isn't called|is never called|isn't reached|is never reached|isn't even reached|never runs|never executes|never fires|doesn't even run|is not even used|isn't even used) (?:unless|except|when|if|on|in|during|for|outside)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:patch|change|commit|function|helper|code|path|it) (?P<cue>only runs|only executes|only fires|only triggers|only kicks in|only changes behaviour|only changes behavior|just runs|just executes|just fires) (?:during|on|when|at|in|for|if|under|with)\b",
    ),
    p(
        Disputes,
        r"\b(?:kernel|code|system|cpu) is doing (?:exactly )?the (?P<cue>same work|same amount of work)\b",
    ),
    p(
        Disputes,
        r"\b(?:benchmark|test|metric|tool|workload) (?:now )?(?:reports|counts|measures|accounts) (?:{w} ){0,3}(?P<cue>differently|in a different unit|in different units|something else|something different)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>byte-for-byte the same|byte for byte the same|byte-for-byte identical|byte for byte identical|identical code|identical generated code|same generated code|identical binary|identical object code|same object code|identical machine code|same machine code)\b",
    ),
    p(
        Disputes,
        r"\b(?:patch|commit|change) (?:is|was) (?:just |only |purely )?(?P<cue>a documentation|a doc|a docs|a comment|a comment-only|a whitespace|a cosmetic|a typo|a spelling|a kconfig help|an documentation) (?:fix|change|update|patch|tweak|only|cleanup)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:i'm|i am|we're|we are) (?:{w} )?(?P<cue>skeptical|sceptical|doubtful|unconvinced)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>something else) (?:is|must be|has to be|may be|might be)? ?(?:going on|at play|happening|responsible|the cause|to blame|at work)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:this|that|it|the report|the result|the results|the regression|the bisect|the bisection|the numbers)(?: one)?(?:'s| is| are| looks| seems| sounds| look| seem) (?:{w} )?(?P<cue>bogus)\b",
    ),
    p(
        Disputes,
        r"\b(?:benchmark|test|testing|measurement|statistical|accounting|counting|tooling|reporting) (?P<cue>artefact|artifact|quirk)\b",
    ),
    p(
        Disputes,
        r"\b(?:an |the |a pure |purely an |just an |only an )?(?P<cue>artefact of|artifact of) (?:how|the way|what|the) (?:{w} ){0,3}(?:benchmark|test|tests|measures|measured|counts|counted|accounting|counting|tool|metric|workload|reports|reported)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:test|benchmark|workload|it|this) (?:{w} )?(?P<cue>never calls|never call|doesn't call|does not call|never hits|doesn't hit|does not hit|never exercises|doesn't exercise|does not exercise|never touches|doesn't touch|does not touch|never enters|doesn't even call|never reaches|doesn't reach|does not reach) (?:into )?(?:this|that|the|these|those|any of|any|our|my) (?:{w} )?(?:code|path|paths|function|functions|codepath|code path|helper|branch)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:code|path|function|change|patch) (?:is |are )?(?:only )?(?P<cue>only reached|only called|only used|only hit|only exercised|only taken|only compiled|only built|only executed) (?:on|by|when|with|for|if|in)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?P<cue>pure refactor|purely a refactor|just a refactor|only a refactor|simple refactor|trivial refactor|pure cleanup|just a cleanup|only a cleanup|simple cleanup|trivial cleanup|just a rename|pure rename|simple rename|trivial rename|pure code move|just a code move|just a comment change|only a comment change|just a whitespace change)\b(?:[^.]{0,80})\b(?:can't|cannot|couldn't|hard|doubt|don't see|no way|shouldn't|unlikely)\b",
    ),
    neg(
        Disputes,
        r"\b(?:this|the|that|my|our|your) (?:{w} )?(?:commit|patch|change) (?:really |even |possibly )?(?:shouldn't|should not|can't|cannot|couldn't|could not|doesn't|does not) (?P<cue>change anything|make any difference|make a difference|matter at all|change performance|affect performance|affect anything)\b",
    ),
    neg(
        Disputes,
        r"\b(?:don't|do not|didn't|did not) (?:really )?(?:think|believe)(?: that)? (?:this|it|that|the (?:{w} ){0,2}(?:report|result|change|drop|number|numbers))(?: really)? (?:is|was|'s|are|were) (?:a |an )?(?P<cue>real regression|genuine regression|true regression|actual regression|real problem|real issue|real slowdown|real)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>bisection artefact|bisection artifact|bisect artefact|bisect artifact|bisection error|bisect error|bisection glitch|bisection mistake|misbisect|mis-bisect|mis-bisected|misbisected|mis-bisection|bad bisect|bad bisection|bisected wrongly|bisected incorrectly|bisection is off|bisect is off)\b",
    ),
    neg(
        Disputes,
        r"\b(?:isn't|is not|wasn't|was not|aren't|are not|is no|are no|was no|were no)(?: {w})? (?P<cue>any slower|actually slower|really slower|slower at all|any faster|really any slower)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>not convinced|not at all convinced|not entirely convinced|not really convinced|not fully convinced|doubt|don't think|do not think|don't believe|do not believe|not sure)(?: that)? (?:this|that|the|your|my|our|his|her) (?:{w} ){0,2}(?:commit|patch|change|series) (?:is|was|really is|'s) (?:the culprit|to blame|responsible|the cause|at fault|guilty|the problem)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:isn't|is not|aren't|are not|wasn't|was not|weren't|were not|never|not) (?P<cue>even loaded|even built|even compiled in|even compiled|even enabled|even called|even invoked|even executed|even exercised|even reached|even used|even run|even entered|even taken|even hit|loaded at all|built at all|compiled in at all|compiled at all|enabled at all|called at all|invoked at all|executed at all|exercised at all|reached at all|used at all|run at all|entered at all|taken at all|hit at all)\b(?: at all)? (?:on|in|by|during|for|under|with) (?:that|this|the|your|these|those|their) (?:{w} )?(?:machine|machines|box|boxes|system|systems|test|tests|benchmark|workload|config|kconfig|kernel|setup|run|runs|testcase|test case|job|platform)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?P<cue>never happens|never happen|never triggers|never trigger|never fires|never fire|never gets hit|never get hit|never runs|never run|never kicks in|never kick in|doesn't happens|doesn't happen|doesn't triggers|doesn't trigger|doesn't fires|doesn't fire|doesn't gets hit|doesn't get hit|doesn't runs|doesn't run|doesn't kicks in|doesn't kick in|does not happens|does not happen|does not triggers|does not trigger|does not fires|does not fire|does not gets hit|does not get hit|does not runs|does not run|does not kicks in|does not kick in|didn't happens|didn't happen|didn't triggers|didn't trigger|didn't fires|didn't fire|didn't gets hit|didn't get hit|didn't runs|didn't run|didn't kicks in|didn't kick in|did not happens|did not happen|did not triggers|did not trigger|did not fires|did not fire|did not gets hit|did not get hit|did not runs|did not run|did not kicks in|did not kick in|won't happens|won't happen|won't triggers|won't trigger|won't fires|won't fire|won't gets hit|won't get hit|won't runs|won't run|won't kicks in|won't kick in|can't happens|can't happen|can't triggers|can't trigger|can't fires|can't fire|can't gets hit|can't get hit|can't runs|can't run|can't kicks in|can't kick in|cannot happens|cannot happen|cannot triggers|cannot trigger|cannot fires|cannot fire|cannot gets hit|cannot get hit|cannot runs|cannot run|cannot kicks in|cannot kick in|never even happens|never even happen|never even triggers|never even trigger|never even fires|never even fire|never even gets hit|never even get hit|never even runs|never even run|never even kicks in|never even kick in|doesn't even happens|doesn't even happen|doesn't even triggers|doesn't even trigger|doesn't even fires|doesn't even fire|doesn't even gets hit|doesn't even get hit|doesn't even runs|doesn't even run|doesn't even kicks in|doesn't even kick in|does not even happens|does not even happen|does not even triggers|does not even trigger|does not even fires|does not even fire|does not even gets hit|does not even get hit|does not even runs|does not even run|does not even kicks in|does not even kick in|didn't even happens|didn't even happen|didn't even triggers|didn't even trigger|didn't even fires|didn't even fire|didn't even gets hit|didn't even get hit|didn't even runs|didn't even run|didn't even kicks in|didn't even kick in|did not even happens|did not even happen|did not even triggers|did not even trigger|did not even fires|did not even fire|did not even gets hit|did not even get hit|did not even runs|did not even run|did not even kicks in|did not even kick in|won't even happens|won't even happen|won't even triggers|won't even trigger|won't even fires|won't even fire|won't even gets hit|won't even get hit|won't even runs|won't even run|won't even kicks in|won't even kick in|can't even happens|can't even happen|can't even triggers|can't even trigger|can't even fires|can't even fire|can't even gets hit|can't even get hit|can't even runs|can't even run|can't even kicks in|can't even kick in|cannot even happens|cannot even happen|cannot even triggers|cannot even trigger|cannot even fires|cannot even fire|cannot even gets hit|cannot even get hit|cannot even runs|cannot even run|cannot even kicks in|cannot even kick in) (?:in|during|with|on|under|for) (?:this|that|the|your|these) (?:{w} )?(?:benchmark|test|workload|case|run|setup|testcase|test case|job|config)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>only affects|only changes|only matters|only applies|only touches|only kicks in|only makes a difference)\b[^.;]{0,80}\b(?:and|but|while|whereas) (?:the|this|your) (?:reported |failing |regressed )?(?:test|benchmark|workload|testcase|test case|job) (?:uses|doesn't|does not|never|only|isn't|is not)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>comparison|comparisons)(?: here| itself)? (?:is|are|was|were|looks|look|seems|seem|becomes|become) (?:{w} )?(?:meaningless|invalid|moot|bogus|apples to oranges|apples and oranges)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>apples to oranges|apples and oranges|apples-to-oranges)\b",
    ),
    p(
        Disputes,
        r"\b(?:makes|make|made|renders|render|rendered) (?:the |this |any )?(?P<cue>comparison|comparisons) (?:meaningless|invalid|moot|bogus|useless|worthless)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>documentation patch|documentation change|documentation fix|documentation update|documentation commit|doc-only patch|doc-only change|doc-only fix|doc-only update|doc-only commit|docs-only patch|docs-only change|docs-only fix|docs-only update|docs-only commit|comment-only patch|comment-only change|comment-only fix|comment-only update|comment-only commit|comment patch|comment change|comment fix|comment update|comment commit|whitespace patch|whitespace change|whitespace fix|whitespace update|whitespace commit|typo patch|typo change|typo fix|typo update|typo commit|kerneldoc patch|kerneldoc change|kerneldoc fix|kerneldoc update|kerneldoc commit|kernel-doc patch|kernel-doc change|kernel-doc fix|kernel-doc update|kernel-doc commit|documentation-only patch|documentation-only change|documentation-only fix|documentation-only update|documentation-only commit|comment-only patch|comment-only change|comment-only fix|comment-only update|comment-only commit|whitespace-only patch|whitespace-only change|whitespace-only fix|whitespace-only update|whitespace-only commit) (?:{w} ){0,2}(?:slow|slows|slowed|regress|regresses|regressed|affect|affects|affected|move|moves|moved|cost|costs|hurt|hurts|impact|impacts)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:dominated by|measures|measuring|mostly measures|really measures|just measures|actually measures|only measures) (?:how long |how fast |the speed of |the cost of |the time )?(?P<cue>the harness|the test harness|the benchmark harness|the harness's|its harness|process spawning|spawning processes|the timer|timer accuracy|the setup phase)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>no way) (?:that )?(?:it|this|that|the (?:{w} )?(?:patch|commit|change)|my (?:{w} )?(?:patch|commit|change)) (?:{w} )?(?:moves|move|causes|cause|caused|affects|affect|explains|explain|costs|cost|slows|slow|could|can|would|is|has)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:is|are|was|were) never (?P<cue>even built|even compiled|even probed|even loaded|even called|even executed|even exercised|even run|even reached|even enabled)\b",
    ),
    guess(
        Disputes,
        true,
        r"\b(?:doesn't|does not|don't|do not|never|won't|will not) (?P<cue>even get|even gets) (?:probed|loaded|built|compiled|called|used|run|executed|exercised|reached|enabled)\b",
    ),
    neg(
        Disputes,
        r"\b(?:don't|do not|can't|cannot|fail to) (?P<cue>see how) (?:this|it|that) (?:could|can|would|might) be (?:my|the|this|that|our|his|her) (?:{w} )?(?:change|commit|patch|fault|doing|series)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:is|is just|is only|was|was just|it's|it's just|just|only) (?:a |an )?(?P<cue>pure rename|simple rename|trivial rename|mere rename|pure refactor|pure refactoring|pure cleanup|comment change|comment-only change|documentation change|documentation-only change|code move|pure code move)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>mixing up|mixed up|mix up|mixes up) (?:the |your |our )?(?:two |both |the )?(?:kernels|builds|commits|binaries|results|runs)\b",
    ),
    neg(
        Disputes,
        r"\b(?:can't|cannot|can not|couldn't|could not|don't|do not) (?P<cue>come from|be coming from|originate from|originate in|stem from) (?:here|this|that|it|my|the|this)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>not buying|not really buying|don't buy|do not buy|doesn't buy|not buy) (?:it|this|this one|that one|the bisect|the bisection|the report|the result|the results|these numbers|the numbers)(?:[.,;!]|$| at all| either)",
    ),
    p(
        Disputes,
        r"\b(?P<cue>bisect|bisection)(?: result)? (?:is|was|are|were|has to be|must be|looks|seems) (?:simply |just |plainly |clearly |obviously )?(?:wrong|mistaken|incorrect|broken|flawed|unreliable)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>report is|report was|report has to be|report must be|report looks|report seems) (?:simply |just |plainly |clearly |obviously )?(?:wrong|mistaken|incorrect|broken|flawed|unreliable)\b",
    ),
    p(
        Disputes,
        r"\b(?:before|base|baseline|parent|good|old|reference) (?:kernel|build|commit|run) (?:already )?(?P<cue>already contained|already contains|already had|already has|already included|already includes|already carried|already carries)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>only runs|only runs once|only executes|only is called|only gets called|only happens|only fires|only is run|only matters|runs only|is only called|is only run|is called only|runs exactly once|runs once|executes once) (?:{w} ){0,2}(?:at|on|during|in|when|for) (?:{w} )?(?:boot|module load|load time|mount|mount time|init|initiali[sz]ation|probe|probe time|cpu hotplug|hotplug|suspend|resume|error|errors|unload|setup|startup|shutdown)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:the )?(?P<cue>only runtime change|only functional change|only behavioural change|only behavioral change|only real change|only run-time change|only code change) (?:is|sits|lives) (?:in|on) (?:the )?(?:{w} )?(?:error|slow|init|boot|probe|setup|teardown|exit|unload|hotplug|failure|cold|debug)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:bisect|bisection) (?:{w} )?(?P<cue>landed on a merge|lands on a merge|landed on the merge|ended on a merge|ended up on a merge|ends on a merge|pointed at a merge|points at a merge|pointed to a merge|points to a merge|stopped at a merge|stops at a merge|landed at a merge)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>only affects|only changes|only matters|only applies|only touches|only kicks in)\b[^.;]{0,80}\b(?:and|but|while|whereas) (?:this|that|the|your) (?:is|was|box|machine|system|test machine|testbox|test box|platform)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>misattribution|misattributed|mis-attributed|misattributing|mis-attribution)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?P<cue>only touches|only changes|only modifies|only updates|only edits|just touches|just changes|just modifies|just updates|just edits) (?:the |a |some )?(?:documentation|docs|comment|comments|kconfig help|help text|selftest|selftests|tools/testing|documentation/)",
    ),
    guess(
        Disputes,
        true,
        r"\b(?P<cue>so it never|so it doesn't|so it does not|so it can't|so it cannot|so it won't|therefore it never|hence it never|thus it never) (?:even )?(?:executes|execute|runs|run|triggers|trigger|gets called|get called|matters|apply|applies|kicks in|kick in)\b",
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
    neg(
        CannotReproduce,
        r"\b(?:wasn't|weren't|was not|were not|isn't|is not|haven't|have not|hasn't|didn't|did not|never) (?:been )?(?:able|managed|possible) to (?:{w} ){0,2}(?P<cue>reproduce|repro|reproducing)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:didn't|did not|couldn't|could not|haven't|have not|never|can't|cannot) (?:manage|managed|succeed|succeeded) (?:in |to )(?:{w} ){0,2}(?P<cue>reproduce|repro|reproducing)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:can't|cannot|couldn't|could not|wasn't able to|was not able to|weren't able to|unable to|didn't|did not|haven't been able to|failed to) (?:get|make) (?:it|this|that|the (?:{w} )?(?:regression|drop|slowdown|degradation|problem|issue)) to (?P<cue>show up|appear|happen|trigger|reproduce|manifest)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>none of them|none of the machines|none of our machines|none of my machines|none of the boxes|none of my boxes|none of our boxes|neither of them|neither machine|none of the systems|none of my systems|none of our systems) (?:{w} )?(?:shows?|showed|reproduces?|reproduced|sees?|saw|exhibits?|exhibited|has|had)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:numbers|results|scores|throughput|performance|runs|figures) (?:are|were|is|was|look|looked|come out|came out) (?:{w} )?(?P<cue>identical|indistinguishable|the same|unchanged|equal) (?:with and without|before and after|on both|for both|either way)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:i|we) (?:{w} )?(?P<cue>see nothing|saw nothing|get nothing|got nothing|measure nothing|measured nothing|observe nothing|observed nothing|notice nothing|noticed nothing) (?:like|close to|similar|resembling|of the sort|of that|near)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:shows?|showed|see|saw|get|got|measure|measured|observe|observed|find|found) (?P<cue>no measurable|no noticeable|no visible|no significant|no meaningful|no discernible|no statistically significant) (?:{w} )?(?:change|difference|regression|slowdown|drop|degradation|effect)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>see no|saw no|seeing no|measure no|measured no|observe no|observed no|notice no|noticed no) (?:{w} ){0,2}(?:regression|difference|slowdown|degradation|change|drop)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:numbers|results|runs|data|tests|benchmarks|kernels|boxes|machines) (?P<cue>show no|showed no|shows no) (?:{w} ){0,2}(?:regression|difference|slowdown|degradation|change|drop)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>no sign of|no trace of|no hint of|no evidence of) (?:the |a |any |this |that )?(?:{w} )?(?:regression|drop|slowdown|degradation)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>tried to reproduce|attempted to reproduce|tried reproducing|attempted reproducing|tried to repro|attempted to repro)(?:[^.]{0,80})\b(?:failed|fail|no luck|without success|couldn't|could not|nothing|no regression|no difference|no change)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>no luck) (?:reproducing|with reproducing|in reproducing|triggering|hitting|seeing|getting)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?P<cue>both kernels|the two kernels|both builds|the two builds|both commits|the two commits)\b(?:[^.]{0,40})\b(?:within|same|identical|equal|indistinguishable|on par|neck and neck|no difference|of each other)\b",
    ),
    neg(
        CannotReproduce,
        r"(?:^|[,;:] )(?P<cue>no measurable|no noticeable|no visible|no significant|no discernible) (?:{w} )?(?:difference|change|regression|slowdown)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:try|tried|trying|attempted|attempt) to (?P<cue>reproduce|repro)(?:[^.]{0,60})\b(?:but|and) (?:{w} )?(?:failed|couldn't|could not|no luck|didn't|did not|can't|cannot)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:numbers|results|runs|data|tests|measurements|machines|boxes) (?P<cue>don't show|do not show|didn't show|did not show|doesn't show|does not show) (?:any|a|the|much) (?:{w} )?(?:drop|regression|difference|slowdown|degradation|change)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:delta|regression|drop|difference|slowdown|effect) (?:just |simply )?(?P<cue>isn't there|is not there|doesn't show up|does not show up|never shows up|won't show up)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:the same|identical|equal) (?:{w} ){0,2}(?P<cue>either way|both ways|in both cases|on both kernels)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?P<cue>if anything),? (?:{w} ){0,3}(?:faster|better|quicker|improved|an improvement|ahead)\b",
    ),
    neg(
        CannotReproduce,
        r"^(?P<cue>no difference|no regression|no change|no slowdown|no drop)(?: at all| whatsoever)? (?:on my|on our|here|for me|locally|in my|in our)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:medians|means|averages|numbers|results|scores) (?:are|were|look|looked) (?:{w} )?(?P<cue>identical|indistinguishable|within noise)(?:[.,;!]|$)",
    ),
    neg(
        CannotReproduce,
        r"\b(?:can't|cannot|couldn't|could not|unable to|not able to|failed to|wasn't able to) (?P<cue>trigger|hit|see|observe|measure|notice|spot) (?:(?:it|this|that)(?:[.,;!]|$| here| locally| on my| on our| at all| either)|the (?:{w} )?(?:regression|drop|slowdown|degradation)\b)",
    ),
    neg(
        CannotReproduce,
        r"\b(?:same|identical|equal|matching|comparable|indistinguishable) (?:{w} ){0,2}(?P<cue>with and without|before and after|on both kernels|for both kernels|between base and|between the two kernels|between both kernels)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:kernels|runs|builds|both) (?:are|were|come out|came out|perform|performed|run|ran|look|looked) (?P<cue>neck and neck|the same|identical|equal|indistinguishable|on par)\b",
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
    neg(
        CannotReproduce,
        r"\b(?P<cue>can't see|can't observe|can't notice|can't spot|can't measure|can't find|can't get|can't hit|cannot see|cannot observe|cannot notice|cannot spot|cannot measure|cannot find|cannot get|cannot hit|can not see|can not observe|can not notice|can not spot|can not measure|can not find|can not get|can not hit|couldn't see|couldn't observe|couldn't notice|couldn't spot|couldn't measure|couldn't find|couldn't get|couldn't hit|could not see|could not observe|could not notice|could not spot|could not measure|could not find|could not get|could not hit|don't see|don't observe|don't notice|don't spot|don't measure|don't find|don't get|don't hit|do not see|do not observe|do not notice|do not spot|do not measure|do not find|do not get|do not hit|didn't see|didn't observe|didn't notice|didn't spot|didn't measure|didn't find|didn't get|didn't hit|did not see|did not observe|did not notice|did not spot|did not measure|did not find|did not get|did not hit|unable to see|unable to observe|unable to notice|unable to spot|unable to measure|unable to find|unable to get|unable to hit|not able to see|not able to observe|not able to notice|not able to spot|not able to measure|not able to find|not able to get|not able to hit|fail to see|fail to observe|fail to notice|fail to spot|fail to measure|fail to find|fail to get|fail to hit|failed to see|failed to observe|failed to notice|failed to spot|failed to measure|failed to find|failed to get|failed to hit) (?:the|this|that|any|a|such a) (?:{w} )?(?:regression|drop|slowdown|degradation|difference)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:doesn't|does not|didn't|did not|won't|isn't|is not) (?P<cue>show up|reproduce|showing up) (?:for me|here|on my|on our|at my end|on my end|on our end|locally|on any of)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:i|we)(?:'ve| have)? (?:re-?ran|re-?run|ran|tried|tested|retested|re-tested|measured|benchmarked|gave it a (?:shot|try|go))\b[^.;]{0,120}\b(?:and|but) (?:i |we )?(?P<cue>saw nothing|see nothing|got nothing|observed nothing|measured nothing|found nothing|saw no difference|see no difference|got no difference|observed no difference|measured no difference|found no difference|saw no change|see no change|saw no regression|see no regression|found no regression|saw no slowdown|saw no drop|got identical numbers|got identical results|got the same numbers|saw identical numbers|got identical scores|measured identical numbers)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:got|get|getting|see|saw|seeing|measured|measure) (?P<cue>identical numbers|identical results|identical scores|indistinguishable numbers|indistinguishable results)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:i'm |i am |we're |we are )?(?P<cue>not seeing|don't see|do not see|can't see|cannot see) (?:it|this|that|any (?:{w} )?(?:regression|drop|slowdown|difference)) (?:here|locally|on my|on our|for me|either|at all)\b",
    ),
    p(
        CannotReproduce,
        r"(?:^|[,;:] )(?P<cue>no difference|no regression|no slowdown|no drop|no measurable difference|no visible difference|no measurable change|no change)(?: at all| whatsoever| here| either)?[.!]*$",
    ),
    // The change is called noise.
    p(
        Noise,
        r"\b(?:just|only|mostly|pure|likely|probably|is|be|looks like|within|within the|in the) (?P<cue>noise)\b",
    ),
    // "noisy" said of a result or a test, not of a warning or a log line.
    p(
        Noise,
        r"\b(?:is|are|was|were|be|been|being|pretty|very|quite|too|notoriously|super|rather|extremely|really|so|always|inherently|awfully|fairly|somewhat|bit|known to be|looks|seems|gets|got) (?P<cue>noisy)\b",
    ),
    p(
        Noise,
        r"\b(?P<cue>noisy) (?:{w} )?(?:test|tests|benchmark|benchmarks|result|results|numbers|data|run|runs|machine|machines|box|boxes|system|systems|score|scores|metric|metrics|measurement|measurements|testcase|testcases|workload|workloads|microbenchmark|microbenchmarks|one|ones)\b",
    ),
    p(
        Noise,
        r"\b(?:measurement|benchmark|statistical|background|test|testing|normal|usual|expected) (?P<cue>noise)\b",
    ),
    p(
        Noise,
        r"\b(?:as|call it|calling it|call this|calling this|put it down to|put this down to|up to|under|consider it|consider this|consider the change|considered it) (?P<cue>noise)\b",
    ),
    p(
        Noise,
        r"\bwithin (?:the |its |our |a |one )?(?:{w} ){0,2}(?P<cue>variation|variance|variability|error bars|error margin|margin of error|stddev|standard deviation|jitter)\b",
    ),
    p(
        Noise,
        r"^(?:just |probably |likely |looks like |smells like |that's |that is |it's |pure )?(?P<cue>noise|variance|jitter|run-to-run variance|run to run variance)(?:[,.;!]|$| if you ask me| to me| i think| i'd say| imho| as far as i can tell)",
    ),
    p(
        Noise,
        r"\b(?:shift|change|delta|difference|drop|regression|result|[0-9.]+ ?%)(?: {w}){0,2} (?P<cue>means nothing|is meaningless|is statistically insignificant|is not statistically significant)\b",
    ),
    p(
        Noise,
        r"\b(?:usual|normal|typical|expected|known) (?P<cue>wobble|jitter|variance|variation|fluctuation|scatter|spread)\b",
    ),
    p(
        Noise,
        r"\b(?:it's|that's|this is|it is|that is|all) (?:just |simply |pure |only |likely |probably )?(?P<cue>noise)(?:[.,;!]|$)",
    ),
    p(
        Noise,
        r"\b(?P<cue>the dice|dice roll|roll of the dice|luck of the draw|jittery|flakiest|bouncy|wobbly)\b",
    ),
    p(
        Noise,
        r"\b(?:benchmark|test|result|results|numbers|score|it) (?:{w} )?(?P<cue>bounces|bounce|bounced|swings|swing|swung|jumps around|wobbles) (?:like this|around|by|up and down|all the time|every|a lot|quite a bit)\b",
    ),
    p(
        Noise,
        r"\b(?:result|results|numbers|benchmark|test|score|scores|this test|this benchmark)(?: {w}){0,2} (?:is|are|isn't|aren't|has|have|is not|are not|has been|have been) (?:{w} )?(?P<cue>not stable|unstable|bouncing around|bounced around|all over the place|erratic|bimodal)\b",
    ),
    p(
        Noise,
        r"\b(?P<cue>stddev|standard deviation|variance|error bars|run-to-run spread|spread|jitter|variation)(?: {w}){0,6} (?:is |are |was |were )?(?:easily |much |far |way )?(?:larger than|bigger than|greater than|wider than|higher than|exceeds|exceed|exceeding|dwarfs|swamps|larger|bigger) (?:the )?(?:{w} )?(?:change|difference|regression|delta|drop|effect|shift)\b",
    ),
    p(
        Noise,
        r"\brun[- ]to[- ]run (?P<cue>variation|variance|noise)\b",
    ),
    p(Noise, r"\b(?P<cue>fluctuat)(?:es|ion|ions|ing|e|ed)\b"),
    p(
        Noise,
        r"\b(?:it's|that's|this is|it is|that is|all|is) (?:just |simply |pure |only |normal |ordinary )(?P<cue>variance|variation|jitter|wobble|fluctuation)(?:[.,;!]|$)",
    ),
    p(
        Noise,
        r"\b(?:another|the usual|more|some|a bit of|a little)(?: {w}){0,2} (?:of )?(?:[0-9.]+ ?% (?:of )?)?(?:[a-z-]+ )?(?P<cue>wobble|wobbles|jitter)\b",
    ),
    p(
        Noise,
        r"\b(?:smaller|less|lower|narrower|tinier) than (?:the |our |your )?(?:{w} )?(?P<cue>spread|variation|variance|noise|jitter|stddev|run-to-run|run to run|scatter|error bars)\b",
    ),
    p(
        Noise,
        r"\b(?P<cue>no signal|no real signal|no actual signal|no meaningful signal|no clear signal) (?:here|in (?:this|the|these|that))\b",
    ),
    p(
        Noise,
        r"\b(?:baseline|base|base kernel|parent|result|results|numbers|score)(?: itself| alone)? (?P<cue>wanders|wander|drifts|drift|moves around|varies|vary|swings|swing)(?: {w})? (?:by|up to|between|as much|more|a lot|quite)\b",
    ),
    // The change is blamed on code or data layout.
    p(
        Layout,
        r"\b(?P<cue>layout) (?:{w} )?(?:change|changes|changed|shift|shifts|difference|differences|effect|effects|issue)\b",
    ),
    p(
        Layout,
        r"\b(?:code|data|section|text|cache ?line|function|kernel|struct|structure) (?:section )?(?P<cue>layout|alignment|placement)(?:[.,;:!)]|$| change| changes| changed| shift| shifts| shifted| effect| effects| issue| issues| artefact| artifact| difference| differences| noise| luck| lottery| problem| thing| is| was| of| again| moved| moves| differs| show| shows| matters| alone| can| could| will| would| may| might)",
    ),
    p(
        Layout,
        r"\b(?P<cue>alignment|placement) (?:change|changes|changed|issue|effect)\b",
    ),
    p(
        Layout,
        r"\b(?:aligned|placed|placing {w}) (?P<cue>differently)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>alignment artefact|alignment artifact|alignment effect|alignment luck|alignment lottery|alignment noise|layout artefact|layout artifact|layout effect|layout luck|layout lottery|layout noise|placement effect|placement luck|cacheline effect|cache line effect|cacheline luck|cache line luck)\b",
    ),
    p(
        Layout,
        r"\b(?:changed|changes|change|shifted|shifts|shift|moved|moves|perturbed|perturbs|altered|alters) (?:the )?(?P<cue>alignment|layout|placement) of\b",
    ),
    guess(
        Layout,
        false,
        r"\b(?P<cue>linker|toolchain|compiler) (?:{w} ){0,2}(?:placed|places|laid out|lays out|aligned|aligns|packed|packs|moved|moves)\b",
    ),
    p(
        Layout,
        r"\b(?:struct|structure|hot structure|data structure)(?: {w}){0,2} (?:gets |got |is |was |being )?(?P<cue>repacked|reshuffled|rearranged|reordered|reshuffle|repack|grows|grew)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>same cacheline|same cache line|same cache-line|into a different cacheline|into another cacheline|next cacheline|next cache line|adjacent cacheline|different cache lines|different set of cache lines|different cachelines)\b",
    ),
    p(
        Layout,
        r"\b(?:another|a|classic|typical|just a|just another|the usual) (?P<cue>layout|alignment) (?:one|thing|issue|effect|artefact|artifact|problem|regression|case|game)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>straddles|straddle|straddling|crosses a cache|crosses a 64-byte|crossing a cache|crosses a page boundary)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>moved by|shifted by|offset by) [0-9]+ bytes\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>jcc erratum|jcc mitigation|32-byte boundary|64-byte boundary)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>link order|linking order) (?:{w} )?(?:changed|shifted|moved|differs|is different)\b",
    ),
    p(
        Layout,
        r"\b(?:i bet|i'd bet|my bet is|my guess is|i'd guess|it's|this is|that's) (?:{w} )?(?P<cue>alignment|layout|placement)\b",
    ),
    p(
        Layout,
        r"\b(?P<cue>alignment|text layout|code layout|image layout|link order|function placement|cacheline placement|cache line placement)(?: {w})? (?:thing|issue|effect|artefact|artifact|problem|shift|luck|lottery|noise|side effect|side-effect)\b",
    ),
    p(
        Layout,
        r"\b(?:everything after|everything behind|functions after|the functions after|the image|kernel image|the kernel image|\.text|text section|hot functions|hot loop|hot path)\b[^.;]{0,40}\b(?P<cue>shifts|shifting|shifted|moves around|moved around|gets shuffled|got shuffled|reshuffled)\b",
    ),
    guess(
        Layout,
        false,
        r"\b(?:share|sharing|shares|shared|cross|crosses|crossing|straddle|straddles|straddling|split across) (?:an |a |one |the same |two )?(?P<cue>itlb|i-tlb|icache|i-cache|instruction cache) (?:entry|entries|line|lines|page|pages|set|sets)\b",
    ),
    guess(
        Layout,
        false,
        r"\b(?:logic|logical|functional|code|actual) change (?:itself )?(?:is|was) (?P<cue>irrelevant|innocent|not the cause|not to blame|beside the point)\b",
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
        r"\b(?:that|this|it)(?:'s| is) (?:just |simply |really |basically )?the (?P<cue>price|cost) (?:of|for)\b",
    ),
    p(
        Declines,
        r"\b(?:is|'s|are|simply|just|merely|basically) (?:just |simply |merely |unfortunately |basically |really )?(?:the |a |an )?(?:{w} )?(?P<cue>cost of|price of|cost for|price for|consequence of|side effect of|side-effect of|result of) (?:the |a |an |doing |being |having |making )?(?:{w} ){0,3}(?:correct|correctly|correctness|safe|safely|safety|security|secure|fix|fixing|bug ?fix|bugfix|proper|properly|right|robust|robustness|hardening|mitigation)\b",
    ),
    p(
        Declines,
        r"\b(?:we|i|this|the patch|the change|the commit|it)(?: {w})? (?P<cue>traded|trades|trade off|trades off|traded off|sacrificed|sacrifices|sacrifice|gave up|give up|gives up) (?:{w} ){0,4}(?:for|to get|to gain|in favou?r of|in exchange for|against|to (?:close|fix|plug|avoid|prevent|make|keep|ensure|guarantee))\b",
    ),
    p(
        Declines,
        r"\b(?:i'd|i would|we'd|we would|i'll|we'll) (?:rather|happily|gladly|just) (?P<cue>take|accept|eat|pay|swallow|live with|keep) (?:the|this|that|a|such|some) (?:{w} ){0,2}(?:hit|regression|slowdown|cost|penalty|loss|overhead|drop)\b",
    ),
    p(
        Declines,
        r"\b(?:that's|that is|this is|it's|it is|which is) (?:entirely |purely |all |completely |very much |simply |just )?(?P<cue>by design|intended|intentional|deliberate|on purpose|working as designed|working as intended|expected|to be expected)(?:[.,;:!)]|$| (?:and|but|here|then|too|though|anyway|since|because|as|given|i'm afraid))",
    ),
    neg(Declines, r"\b(?P<cue>lose sleep|losing sleep|lost sleep)\b"),
    p(
        Declines,
        r"\b(?P<cue>price i'm happy to pay|price we're happy to pay|price i am happy to pay|price i'm willing to pay|price we're willing to pay|cost i'm happy to pay|cost we're happy to pay|happy to pay|willing to pay)\b",
    ),
    p(
        Declines,
        r"\b(?:i'll|we'll|i will|we will|i can|we can|happy to|willing to) (?P<cue>take the hit|eat the hit|eat the cost|accept the hit|accept that cost|swallow the hit|swallow the cost)\b",
    ),
    p(
        Declines,
        r"^(?:a |it's a |that's a |classic |the usual )?(?P<cue>trade-off|tradeoff|trade off)(?:[,.;:!]|$| plain| and| really)",
    ),
    p(
        Declines,
        r"\b(?:old|previous|before|original|earlier|former)(?:[^.]{0,40})\b(?P<cue>cheating|cheated|cutting corners|cut corners)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>not something i|not something we|nothing i|nothing we)(?:'m|'re| am| are)? (?:going to |gonna |will |would |plan to |want to )?(?:act on|chase|worry about|spend time on|pursue|lose sleep over)\b",
    ),
    p(Declines, r"\b(?P<cue>is what it is)\b"),
    p(
        Declines,
        r"^(?:so,? |ok,? |okay,? |eh,? |meh,? )?(?:[0-9.]+ ?%[.,]? )?(?P<cue>moving on)[.!]*$",
    ),
    p(
        Declines,
        r"\b(?:accepted|accept|accepts|made|chose|took|considered|knew about) (?:this|that|the|a) (?:{w} )?(?P<cue>trade-off|tradeoff|trade off|compromise)\b",
    ),
    p(
        Declines,
        r"\b(?:a|an) (?:{w} )?(?P<cue>deliberate choice|deliberate decision|conscious choice|conscious decision|intentional choice|intentional decision|known trade-off|accepted trade-off|design decision|known cost|accepted cost)\b",
    ),
    p(
        Declines,
        r"\b(?:that's|that is|which is|this is|it's|it is|is exactly|that's exactly) (?P<cue>what the patch is for|the point of the patch|the point of the change|the point of the commit|what it's for|what the change is for|the whole point)(?:[.,;!]|$| of the patch| of the change| of it| here)",
    ),
    neg(
        Declines,
        r"\b(?:is|'s) (?P<cue>not a bug)(?:[.,;!]|$| but| and| either| here)",
    ),
    neg(
        Declines,
        r"\b(?:shouldn't|should not|don't think we should|won't|will not|not going to|don't want to|no need to|not worth trying to) (?P<cue>tune for|optimize for|optimise for|design for|care about) (?:that|this|it|such|these)\b",
    ),
    p(
        Declines,
        r"\b(?:regression|slowdown|drop|cost|hit|overhead|difference|loss|penalty) (?:is|was|seems|looks) (?:{w} )?(?P<cue>tiny|negligible|marginal|insignificant|minuscule)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?P<cue>lose a bit|loses a bit|lose a little|loses a little|lose slightly|loses slightly|regress slightly|regresses slightly|lose a few|loses a few)(?:[^.]{0,60})\b(?:gain|gains|win|wins|benefit|benefits|improve|improves|faster)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>allowed to cost|entitled to cost|bound to cost|has to cost|have to cost|going to cost something|will cost something)\b",
    ),
    p(
        Declines,
        r"\b(?:inclined to|i'd|i would|let's|we'll|i'll|prefer to|going to|happy to) (?P<cue>let it be|leave it be|leave it as is|leave it as it is|leave it alone)\b",
    ),
    p(
        Declines,
        r"\b(?:patch|change|commit|code|check|barrier|lock|copy|fix|it) (?P<cue>stays|stays in|is staying|will stay|stays put|is here to stay)(?:[.,;!]|$| in| as| then| for now)",
    ),
    p(
        Declines,
        r"^(?P<cue>keeping it|keeping this|keeping the change|keeping the patch|keeping the commit)(?:[.,;:!]|$)",
    ),
    neg(
        Declines,
        r"\b(?:dropping|reverting|removing|undoing) (?:it|this|that|the (?:{w} )?(?:lock|patch|change|commit|fix|check|barrier))(?: again)? (?:is|isn't|is not) (?P<cue>not an option|no option|out of the question|off the table)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>slow and right|slow and correct|correct and slow|correct but slow|right than fast|correct than fast|safe than fast|correctness over speed|correct over fast|correctly than quickly|correctly than fast|correct than quick|correctness over performance|correct rather than fast|right rather than fast)\b",
    ),
    p(
        Declines,
        r"\b(?:changed|shrank|shrunk|grew|moved|slowed|made|went|did|done|chose|changed it|is|was) (?:{w} ){0,2}(?P<cue>on purpose)\b",
    ),
    p(
        Declines,
        r"\b(?:is|the one|workload|test|benchmark|case) (?:that )?(?P<cue>pays for it|pays the price|paying the price|pays the cost|bears the cost|takes the hit)\b",
    ),
    p(
        Declines,
        r"\b(?:fine|ok|okay|happy|comfortable) (?P<cue>with eating|with accepting|with swallowing|with paying) (?:it|(?:this|that|the) (?:{w} )?(?:hit|cost|regression|slowdown|overhead|loss|penalty|drop))\b",
    ),
    p(
        Declines,
        r"\b(?:consider|considered|considering|deem|deemed|find|found|judge|judged) (?:the|this|that|it|a) (?:{w} ){0,2}(?P<cue>acceptable|tolerable|worth it|justified)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>fallout from|fallout of) (?:fixing|the fix|closing|plugging|making|correcting|the bug ?fix|a bug ?fix|the security)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?:workload|benchmark|test|case|load|setup|configuration) (?:is|seems|looks) (?:{w} )?(?P<cue>pathological|artificial|synthetic|contrived|unrealistic|silly|absurd|extreme)\b",
    ),
    neg(
        Declines,
        r"\b(?:shouldn't|should not|don't think we should|won't|will not|not going to|don't want to) (?P<cue>bend|contort|twist) (?:{w} ){0,3}(?:around|for) (?:it|this|that|such|these)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?:we're|we are|i'm|i am|we'll|we will|i'll|i will) (?P<cue>keeping) (?:it|this|that|the (?:{w} )?(?:patch|commit|change))\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?P<cue>wins|win|gains|gain|helps|help|benefits|benefit|improves|improve) (?:on |for |in )?some (?:{w} ){0,2}(?:workloads?|benchmarks?|cases|tests|loads|machines)(?:,)? (?:and|but|while|at the expense of)\b",
    ),
    p(
        Declines,
        r"\b(?:losing|lose|loses|lost|loss of|giving up|cost of|slowdown of|hit of|regression of|drop of|penalty of|[0-9.]+ ?%)(?:[^.;]{0,60}) (?:is|are|'s|seems|seem|sounds|looks|remains|would be|will be) (?:{w} ){0,2}(?P<cue>acceptable|tolerable|a fair price|a price worth paying|a reasonable price|worth it|justified|a reasonable trade-off|an acceptable trade-off|fine by me|fine with me|ok by me|okay by me|fine for us)\b",
    ),
    neg(
        Declines,
        r"\b(?:doesn't|does not|don't|do not|wouldn't|would not|won't|not|hardly) (?:think (?:this|it|that|the {w}) |really |necessarily |quite )?(?P<cue>warrant|warrants|merit|merits|justify|justifies|deserve|deserves|call for|calls for|need|needs|require|requires) (?:any |much |an? |further |more |immediate |real )?(?:action|attention|fixing|a fix|effort|investigation|a revert|reverting|concern|work|response|follow-up)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?P<cue>nobody runs|no one runs|nobody uses|no one uses|nobody does that|no one does that|no real user|no real-world user|no sane user|no real application|no real workload|no actual user)\b",
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
    neg(
        Declines,
        r"\b(?P<cue>not something i|not something we|not something that i|not something that we|nothing i|nothing we|nothing that i|nothing that we) (?:intend|plan|want|care|need|mean|expect|am going|are going)(?: to)? (?:optimise for|optimize for|optimise|optimize|tune for|tune|chase|fix)\b",
    ),
    neg(
        Declines,
        r"\b(?:i|we)(?:'m| am|'re| are)? (?:really |simply |just )?(?:don't|do not|won't|will not|not going to) (?:plan to |intend to |want to |bother to )?(?P<cue>tune it for|tune this for|tune for|tune the heuristic|tune it|optimi[sz]e for this|optimi[sz]e for it|optimi[sz]e for that)\b",
    ),
    neg(
        Declines,
        r"\b(?:a|this is a|that's a|it's a|it is a|as a|a clear|call it a|it's|this is) (?P<cue>won't-fix|wont-fix|wontfix|won't fix|will-not-fix)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>not changing it|not changing this|not changing that|not going to change it|not going to change this|won't change it|won't change this|won't be changing it|keeping it as is|keeping it as-is|keeping it)(?:[.,;!]|$| as is| as-is| for now| then)",
    ),
    // Said of the change, not of a config symbol or a value ("CONFIG_X=m
    // stays as it is").
    neg(
        Declines,
        r"\b(?:it|this|that|the change|the patch|the commit|this change|this patch|that change|the behaviou?r|the new behaviou?r)(?: {w})? (?P<cue>stays as is|stays as it is|stays as-is|stays that way|is staying as is|is staying|will stay as is|stays)(?:[.,;!]|$| for now| then)",
    ),
    guess(
        Declines,
        false,
        r"\b(?:call (?:that|it|this)|(?:that|it|this)(?:'s| is)(?: actually| really| arguably)?|counts as) (?P<cue>a feature|a bugfix|a bug fix)(?:[.,;!]|$| not a bug| not a regression| rather| if anything| in my book)",
    ),
    p(
        Declines,
        r"\b(?P<cue>faster while being wrong|faster but wrong|fast but wrong|fast and wrong|being wrong doesn't count|being fast and wrong|speed over correctness|correctness over speed|correctness trumps|correctness wins|correctness first|correctness comes first|correct beats fast|correct is better than fast|correct over fast)\b",
    ),
    guess(
        Declines,
        false,
        r"\b(?:overall picture|overall result|overall balance|net result|net effect|big picture|trade-off|tradeoff|balance) (?:is |looks |seems )?(?P<cue>fine with me|fine by me|ok with me|okay with me|good enough)\b",
    ),
    guess(
        Declines,
        true,
        r"\b(?P<cue>nobody runs|no one runs|nobody actually runs|no real workload|no real-world workload|no real application|no sane workload|no sane application|no realistic workload)\b",
    ),
    guess(
        Declines,
        false,
        r"^(?P<cue>meh|shrug|\*shrug\*|so be it)[.!]*$",
    ),
    p(
        Declines,
        r"\b(?:we're|we are|i'm|i am) (?P<cue>done here)\b",
    ),
    p(
        Declines,
        r"\b(?:is|are|was|'s) (?:the|a|just the|simply the|a small|a fair|an acceptable|the unavoidable) (?P<cue>price of|price for|cost of|cost for) (?:not|avoiding|preventing|stopping|being|correct|correctness|safety|fixing|doing|having|getting|keeping)\b",
    ),
    p(
        Declines,
        r"\b(?:i'm|i am|we're|we are|i feel|we feel) (?:quite |perfectly |totally |fully )?(?P<cue>comfortable with|at peace with|content with|okay paying|ok paying|fine paying|happy to pay|willing to pay) (?:it|that|this|the|such)\b",
    ),
    p(
        Declines,
        r"\b(?:gave up|give up|giving up|traded|trade|trading|sacrificed|sacrifice|sacrificing|paid|pay|paying) (?:{w} ){0,5}(?P<cue>in exchange for|in return for|for the sake of)\b",
    ),
    neg(
        Declines,
        r"^(?P<cue>not chasing|not fixing|not pursuing|not tuning|not optimi[sz]ing|not reverting|won't chase|won't tune)(?: (?:it|this|that|the)\b|[.!]?$)",
    ),
    neg(
        Declines,
        r"\b(?:i'd|i would|we'd|we would) (?:much )?(?P<cue>rather not) (?:tune|optimi[sz]e|change|touch|revert|chase|special-case|special case|fix) (?:it|this|that|the|for)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>don't consider|do not consider|wouldn't consider|would not consider|don't call|do not call|wouldn't call|would not call|don't count|do not count|don't treat|do not treat|don't regard|do not regard)\b[^.]{0,80}\b(?:optimi[sz]ed for|optimi[sz]e for|worth optimi[sz]ing|worth fixing|worth chasing|a regression|a real regression|a problem|a bug|an issue)\b",
    ),
    p(
        Declines,
        r"\b(?:we|i)(?:'ll| will| shall| can| could) (?:just |happily |simply |gladly )?(?P<cue>live with) (?:it|that|this|the)\b",
    ),
    neg(
        Declines,
        r"\b(?:don't|do not) (?:think|believe|feel) (?:it's|it is|this is|that's|that is|it'd be|it would be|it's really|this is really) (?P<cue>worth) (?:optimi[sz]ing|fixing|chasing|pursuing|the effort|the trouble|the complexity|addressing|reverting|a revert|it|tuning|changing)\b",
    ),
    p(
        Declines,
        r"\b(?:i'd|i would|we'd|we would|i will|i'll|we'll|we will|let's|i want to|i prefer to|i'd prefer to|we prefer to) (?P<cue>keep it|keep this|keep the change|keep the patch|keep things|leave it|leave this|leave the change|leave things) (?:as it is|as is|as-is|the way it is|like this|like that|alone|unchanged|in place)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>flip side of|flip-side of|other side of the coin of|downside of|price of|cost of) (?:the|a|our|that|this|these) (?:{w} ){0,2}(?:gain|gains|win|wins|improvement|improvements|speedup|speed-up|speedups|benefit|benefits)\b",
    ),
    p(
        Declines,
        r"(?:^|\b(?:yes|yep|yeah|known|it's|that's|this is|it is|that is|which is|all)\b,? )(?:{w} )?(?:and |, )?(?P<cue>deliberate|intentional|by design|on purpose)(?:[.,;:!]|$)",
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
        r"\b(?:issue|problem|bug|fault|mistake|error|glitch|misconfiguration|hardware issue|hardware problem) (?:{w} ){0,2}(?:in|on|with|of) (?P<cue>our test environment|our testing environment|our test setup|our test set-up|our test infrastructure|our test machine|our test box|our testbox|our test system|our test lab|our lab|our environment|our setup|our set-up|our infrastructure|our tooling|the test environment|the test setup|the test machine|the test box|the testbox|the test system)\b",
    ),
    p(
        Withdraws,
        r"\b(?:issue|problem|bug|fault|mistake|error|glitch) (?:{w} ){0,2}(?P<cue>on our side|on our end)\b(?:[^.]{0,80})\b(?:test|tests|testing|machine|box|environment|setup|disk|config|configuration|infrastructure|tool|tools|script|scripts|hardware)\b",
    ),
    p(
        Withdraws,
        r"\b(?P<cue>misconfiguration|misconfigured|mis-configured|mis-configuration|misconfig)\b(?:[^.]{0,40})\b(?:test|machine|box|testbox|environment|setup|set-up|host)\b",
    ),
    p(
        Withdraws,
        r"\b(?:test|machine|box|testbox|environment|setup|set-up|host)\b(?:[^.]{0,40})\b(?P<cue>misconfiguration|misconfigured|mis-configured|mis-configuration)\b",
    ),
    p(
        Withdraws,
        r"\b(?:we|i)(?:'ve| have| had)? (?:{w} )?(?P<cue>retracted|retract|withdrawn|withdrew|withdraw|invalidated|invalidate|recalled) (?:(?:the|this|that|our|my) (?:{w} )?(?:report|reports|result|results|bisect|bisection|email|mail|finding)\b|it(?:[.,;!]|$))",
    ),
    guess(
        Withdraws,
        false,
        r"\b(?P<cue>our fault|our mistake|our bad|our error)\b",
    ),
    neg(
        Withdraws,
        r"\b(?:report|result|results|regression|bisect|bisection|finding)(?: {w}){0,2} (?P<cue>no longer stands|no longer holds|is no longer valid)\b",
    ),
    p(
        Withdraws,
        r"\b(?:report|result|results|regression|bisect|bisection|finding)(?: {w}){0,2} (?P<cue>is void|can be dropped|can be ignored|can be closed|can be disregarded|should be ignored|should be disregarded)\b",
    ),
    p(
        Withdraws,
        r"\b(?:unstable|flaky|broken|faulty|misbehaving|overheating|noisy|contaminated|polluted|throttling|throttled) (?P<cue>test environment|test machine|test box|testbox|test setup|test system|test host|test bed|testbed|test infrastructure|test hardware)\b",
    ),
    p(
        Withdraws,
        r"\b(?P<cue>thermal throttling|stale rootfs|wrong rootfs|wrong kernel config|faulty hardware|failing disk|bad dimm)\b",
    ),
    p(
        Withdraws,
        r"\b(?:kernels|runs|tests|results|commits|builds) (?:were|was) (?:run|tested|measured|built|booted) (?:on|with|using) (?P<cue>different machines|different machine models|different hardware|different boxes|different configs|different configurations|different compilers|different rootfs|different setups)\b",
    ),
    guess(
        Withdraws,
        false,
        r"^(?:so |sorry,? )?(?:please )?(?P<cue>disregard|ignore)(?: it| this| that| this one| the report| this report)?(?: please)?[.!]?$",
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
        r"\b(?P<cue>re-run|rerun|re-ran|reran|re-running|rerunning|re-tested|retested|re-testing|retesting|retest|re-test|run again|ran again|tested again|test again)(?: {w}){0,14} (?:no|not|didn't|couldn't|cannot|can't|don't) (?:{w} ){0,3}(?:regression|difference|drop|slowdown|degradation|change)\b",
    ),
    p(
        Withdraws,
        r"\b(?:please|kindly|pls|you can|you may|feel free to) (?P<cue>disregard|ignore) (?:this|the|our|that) (?:{w} )?(?:report|reports|result|results|bisect|bisection|finding|findings)\b",
    ),
    guess(
        Withdraws,
        false,
        r"\b(?:so |then )?(?:please|kindly|pls) (?P<cue>disregard)[.!]*$",
    ),
    p(
        Withdraws,
        r"\b(?:please|kindly|pls) (?P<cue>drop this report|drop the report|drop our report|ignore this one)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:no|without any|without a) (?:{w} )?(?:difference|change|regression|gap|delta) (?P<cue>between parent and|between the parent and|between base and|between the base and|between the two commits|between both commits|between parent and commit)\b",
    ),
    guess(
        Withdraws,
        false,
        r"\b(?P<cue>another job|second job|other job|other jobs|another test|background job|background jobs|stray job|stray process|another workload)\b[^.]{0,40}\b(?:was|were) (?:also )?(?:running|run|scheduled|active)\b",
    ),
    p(
        Withdraws,
        r"\bconsider (?:this|the|our) (?:{w} )?(?P<cue>report withdrawn|report retracted|report invalid|report void|report as withdrawn|report as invalid|report closed|report as void|report cancelled|report canceled)\b",
    ),
    p(
        Withdraws,
        r"\b(?:artifact|artefact|problem|issue|bug|fault|mistake|glitch) (?:of|in|with|from) (?P<cue>our harness|our test harness|our setup|our tooling|our scripts|our infrastructure|our environment|our test scripts|our lkp|our bisect|our bisection)\b",
    ),
    // A fix is promised.
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|i'm going to|i am going to|we're going to|we are going to|i plan to|we plan to|i intend to|let me) (?:{w} ){0,2}(?P<cue>send a fix|send a patch|post a fix|post a patch|send out a fix|send out a patch|send a v2|post a v2|send v2|post v2|send a new version|post a new version|prepare a fix|prepare a patch|submit a fix|submit a patch|cook up a fix|cook up a patch|send the fix|send the patch|send a follow-up|post a follow-up|send a follow up|post a follow up|send a fixup|post a fixup|send an incremental|spin a patch|spin a fix|spin up a patch|whip up a patch|whip up a fix|knock up a patch|put together a patch|put together a fix|write up a fix|write up a patch|send a proper patch|send a formal patch|send a proper fix|write a fix|write a patch|come up with a fix|come up with a patch)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'm|i am|we're|we are|i've been|we've been) (?:{w} )?(?P<cue>working on) (?:a |the )?(?:{w} )?(?:fix|patch|solution)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>i'll fix|i will fix|we'll fix|we will fix|i'll address|we'll address|i will address) (?:it|this|that|the regression|the issue)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>fix in the works|patch in the works|fix in progress|fix is underway|fix underway|fix on the way|patch on the way|fix is coming|fix coming|fix is on its way|patch is on its way|fix is on the way|patch is on the way|fix is in progress)\b",
    ),
    p(
        WillFix,
        r"(?:^|\b(?:i'm|i am|we're|we are|still|already) )(?P<cue>working on it|working on this|on it now|working on a fix|working on a patch|cooking up a fix|cooking a fix|preparing a fix|preparing a patch|writing a fix|writing a patch)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|we'll|i will|we will|let's|let me|going to|gonna) (?P<cue>get this fixed|get it fixed|get that fixed|get this sorted|get it sorted|sort this out|sort it out|fix this up|fix it up|get this addressed|get it addressed)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'm|i am|we're|we are|i'll be|we'll be|i've started|we've started) (?P<cue>preparing a fix|preparing a patch|preparing a follow|preparing the fix|writing a fix|writing a patch|writing up a fix|writing the fix|cooking up a fix|cooking a fix|putting together a fix|putting together a patch|testing a fix|testing a patch|testing the fix|finishing a fix|finishing a patch)\b",
    ),
    p(
        WillFix,
        r"(?:^(?:will |i'll |we'll |i will |we will )|\b(?:i|we)(?:'ll| will) (?:{w} )?)(?P<cue>address this|address it|address that|take care of it|take care of this|take care of that|deal with it|deal with this)\b",
    ),
    p(
        WillFix,
        r"\b(?:i|we) (?:already |now )?(?:'ve )?(?P<cue>have a fix|have a patch|have the fix|have the patch|got a fix|got a patch|have a fixup) (?:for (?:it|this|that) )?(?:locally|ready|queued up|in my tree|in testing|out shortly|out soon)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|we'll|i will|we will) (?:have|get) (?:a |the )?(?:fix|patch) (?P<cue>out shortly|out soon|out today|out tomorrow|out this week|posted soon|posted shortly|ready soon|ready shortly)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>patch incoming|fix incoming|patch coming up|fix coming up|patch to follow|fix to follow|patch will follow|fix will follow|follow up with a fix|follow up with a patch)\b",
    ),
    p(
        WillFix,
        r"(?:^|[,;:] )(?P<cue>will fix|will send a fix|will post a fix)(?: it| this| that| asap| soon| shortly)?[.!]?$",
    ),
    p(
        WillFix,
        r"\b(?P<cue>leave it with me|get the regression sorted|get the regression fixed|get the regression addressed|get this regression fixed|get this regression sorted)\b",
    ),
    p(
        WillFix,
        r"\b(?:i|we) (?:have|'ve got|got) a (?:{w} )?(?:patch|fix)(?:[^.]{0,80})\b(?P<cue>will post|will send|i'll post|i'll send|to post it|to send it)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|let me|we'll|we will|i'm going to|i am going to|we're going to|i need to|i'll have to|i have to|i'll try to) (?P<cue>rework|respin|re-spin|redo|revise|rewrite|reimplement|re-implement) (?:the|this|my|our|that|it)(?: {w})?(?: (?:patch|series|change|fix|approach|code))?\b",
    ),
    p(
        WillFix,
        r"\b(?:and|then|so)(?: i)? (?P<cue>will send a fix|will send a patch|will post a fix|will post a patch|will fix it|will fix this|will cook up a fix|will send something)\b",
    ),
    p(
        WillFix,
        r"(?:^|[.;:,] )(?:a )?(?P<cue>patch tomorrow|fix tomorrow|patch later today|patch later this week|fix later today|patch soon|fix soon|patch shortly|fix shortly|patch next week|fix next week|patch to come|fix to come)[.!]?$",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|let me|i'm going to|we're going to)\b[^.;]{0,120}\b(?:which|that|this|it) (?:should|will|would|ought to) (?P<cue>bring back|restore|recover|undo the|get back|win back|claw back|fix the regression|take care of the regression)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|let me) (?P<cue>fix up|sort out|straighten out|rework) (?:the|this|that|our|my) (?:{w} ){0,2}(?:accounting|path|code|check|logic|locking|fast path|hot path|helper|loop|regression|handling)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|let me) (?:look into|look at|work on|try|see about|go about|start) (?P<cue>restoring|recovering|bringing back|getting back|reclaiming|winning back)\b",
    ),
    p(
        WillFix,
        r"(?:^|\b(?:i|we)(?:'ll| will) |[.;,] )(?:will )?(?P<cue>spin a v2|spin v2|spin a new version|spin a new one|send a v2|post a v2|send v2|post v2|respin|re-spin|resend with a fix)\b",
    ),
    // The next version of the patch answers the report.
    p(
        WillFix,
        r"\b(?:v[0-9]+|(?:next|new|updated|upcoming|following|coming) (?:version|revision|iteration|spin|posting|respin|series))\b(?: \([^)]{0,40}\))?(?: [^.;]{0,30})? (?P<cue>(?:will|should|is going to|shall) (?:address|fix|take care of|resolve|handle|deal with)) (?:this|it|that|the (?:issue|problem|regression|report|slowdown|drop|performance (?:drop|loss|regression|issue|problem)))\b",
    ),
    p(
        WillFix,
        r"\b(?:be|get|i'll|i will|we'll|we will|will) (?:fixed|addressed|taken care of|handled|resolved|fix (?:this|it|that)|address (?:this|it|that)) (?P<cue>in v[0-9]|in the next version|in the next revision|in the next iteration|in the next spin|in the next posting|in the respin|in the next round|in the new version|in an updated version|in the updated version|in the next series)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|let me) (?P<cue>cook up|whip up|put together|come up with|hack up|knock up|knock together|write up) (?:something|a patch|a fix|a change|a version)\b",
    ),
    guess(
        WillFix,
        false,
        r"\b(?:agreed|agree|yes|yep|right)\b,?(?: that)? (?:this|it|that) (?P<cue>needs fixing|needs to be fixed|needs a fix|should be fixed|must be fixed|wants fixing)\b",
    ),
    // A revert (or a drop of the culprit) is promised or proposed.
    p(
        WillRevert,
        r"\b(?:i|we|let's|let us|i'd|we'd|i'll|we'll|i'm|we're)(?: will| should| can| could| need to| have to| must| better| would| might| going to| am going to| are going to| plan to| intend to| want to| would like to| like to)? (?:just |simply |probably |likely |then |rather |now |better |go ahead and )?(?P<cue>revert|back out) (?:it|this|that|them|the (?:{w} )?(?:patch|commit|change|series|culprit)|commit [0-9a-f]{7,40}|[0-9a-f]{7,40})\b",
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
    p(
        WillRevert,
        r"\b(?:i'll|i will|we'll|we will|let me|i'm going to|i am going to|we're going to|going to|i can|i'll go ahead and|i'll just|will) (?:{w} ){0,2}(?P<cue>send a revert|post a revert|send the revert|post the revert|send out a revert|submit a revert|prepare a revert|queue a revert|queue the revert|apply the revert|apply a revert|send out the revert|push a revert|push the revert)\b",
    ),
    p(
        WillRevert,
        r"\b(?:please|pls|kindly) (?P<cue>drop|revert|back out|remove) (?:(?:it|this|that)(?:[.,;!]|$| from| for now| again)|the (?:{w} )?(?:patch|commit|change|series)\b|this (?:patch|commit|change|series)\b|[0-9a-f]{7,40}\b|commit [0-9a-f]{7,40}\b)",
    ),
    p(
        WillRevert,
        r"\b(?:queued|applied|pushed|committed|sent|posted|merged|picked up|prepared|added) (?:up )?(?:a |the )?(?P<cue>revert)\b",
    ),
    p(
        WillRevert,
        r"\b(?:feel free to|go ahead and|fine to|ok to|okay to|no objection to|no objections to|happy for you to|fine with you|fine with|ok with|okay with|happy with) (?:just )?(?P<cue>revert|back out)(?:ing)?\b",
    ),
    p(
        WillRevert,
        r"\b(?:i'm|i am|we're|we are) (?:{w} )?(?P<cue>reverting|backing out) (?:it|this|that|the (?:{w} )?(?:patch|commit|change|series)|this (?:patch|commit|change|series)|[0-9a-f]{7,40})\b",
    ),
    p(
        WillRevert,
        r"\b(?:i|we|let's|let me|i'll|we'll|i will|we will|i'm going to|going to) (?:just )?(?P<cue>back it out|back this out|back that out|back them out|pull it out|pull this out|take it out|take this out|rip it out|kick it out|back the patch out|back the commit out|back the change out|pull the patch out|take the patch out)\b",
    ),
    p(
        WillRevert,
        r"^(?:i've |i have |we've |i |we |ok,? |okay,? )?(?P<cue>pulled it|pulled this|pulled the|taken it|kicked it|zapped it|removed it|removed the patch|removed the commit) (?:{w} )?(?:out )?(?:of|from) (?:the |my |our |his |her |your |their )?(?:[[:word:].-]+ )?(?:tree|branch|queue|for-next|linux-next|-next|repo|repository|stack|pile|series|pull request|patchset)\b",
    ),
    p(
        WillRevert,
        r"\b(?:let's|let us) (?P<cue>revert|back it out|drop it)(?:[,.;:!]|$| now| then| for now)",
    ),
    p(
        WillRevert,
        r"\b(?:please|pls|kindly) (?P<cue>revert|drop it|back it out|revert it)(?:[,.;:!]|$)",
    ),
    p(
        WillRevert,
        r"^(?P<cue>reverting|reverted|dropping it|dropped|backing it out|backed out)(?: it| this| now| for now| the patch| the commit)?[.!]?$",
    ),
    p(
        WillRevert,
        r"\b(?:the )?(?P<cue>revert) (?:is|has been|was) (?:now )?(?:in|queued|applied|merged|pushed|committed)\b",
    ),
    p(
        WillRevert,
        r"^(?P<cue>backing|pulling|dropping|reverting|yanking|removing) (?:this|it|that|the (?:{w} )?(?:patch|commit|change|series)) (?:out )?(?:of|from) (?:the |my |our |his |her |your |their )?(?:[[:word:].-]+ )?(?:tree|branch|queue|for-next|linux-next|-next|repo|repository|stack|pile|series|pull request|patchset)\b",
    ),
    p(
        WillRevert,
        r"\b(?P<cue>yanked|yanking) (?:it |this |that |the (?:{w} )?(?:patch|commit|change|series) )?(?:out )?(?:of|from) (?:the |my |our |his |her |your |their )?(?:[[:word:].-]+ )?(?:tree|branch|queue|for-next|linux-next|-next|repo|repository|stack|pile|series|pull request|patchset)\b",
    ),
    p(
        WillRevert,
        r"\b(?:thing|option|call|plan|way forward|best|safest|simplest|right thing)(?: to do)? (?:is|would be|'s) (?:to )?(?P<cue>revert|back it out|back out|drop it|drop the patch|drop the commit|pull it)\b",
    ),
    p(
        WillRevert,
        r"\b(?:can|could|would|will) (?P<cue>you drop|you revert|you back out|you remove|you please drop|you please revert|you please remove|you just drop|you just revert|you kindly drop) (?:(?:it|this|that)(?:[.,;!?]|$| from| for now| again)|the (?:{w} )?(?:patch|commit|change|series)\b|this (?:patch|commit|change|series)\b|[0-9a-f]{7,40}\b)",
    ),
    p(
        WillRevert,
        r"^(?:now |ok,? |okay,? |done,? |so )?(?P<cue>reverted|dropped|backed out) (?:from|it|now|this|that|for now|the (?:{w} )?(?:patch|commit|change|series))\b",
    ),
    p(
        WillRevert,
        r"\b(?:i've|i have|we've|we have|i|we|i just|i've now|i've just|i have now) (?:now |just |already )?(?P<cue>dropped|reverted|backed out|removed|pulled|zapped) (?:it|this|that|the (?:{w} )?(?:patch|commit|change|series)|[0-9a-f]{7,40}|commit [0-9a-f]{7,40}) (?:from|out of|in) (?:the |my |our |his |her |your |their )?(?:[[:word:].-]+ )?(?:tree|branch|queue|for-next|linux-next|-next|repo|repository|stack|pile|series|pull request|patchset)\b",
    ),
    p(
        WillRevert,
        r"\b(?:i'm|i am|we're|we are|i'll|we'll|i will|we will) (?:{w} ){0,2}going to (?:{w} )?(?P<cue>revert|back out|drop) (?:(?:it|this|that|them)(?:[.,;!]|$| from| for now| entirely| until| again)|(?:the|this|that|these|those) (?:{w} )?(?:patch|patches|commit|commits|change|series|culprit|one)\b|commit [0-9a-f]{7,40}\b|[0-9a-f]{7,40}\b)",
    ),
    p(
        WillRevert,
        r"^(?:now )?(?P<cue>reverted|dropped|backed out|zapped|reverted it|dropped it) (?:in|from|on|for|with) (?:{w} )?(?:[a-z0-9_./-]*(?:/|-next|next|urgent|fixes|master|main)[a-z0-9_./-]*|my tree|the tree|my branch|the branch|for-next|linux-next|mainline)\b",
    ),
    p(
        WillRevert,
        r"\b(?:i'd|i would|we'd|we would|i|we)? ?(?:propose|suggest|recommend|vote for|am in favour of|am in favor of|'m in favour of|'m in favor of|would favour|would favor|argue for) (?P<cue>reverting|a revert|dropping|backing out|a drop)\b",
    ),
    p(
        WillRevert,
        r"\b(?:i'm|i am|we're|we are)(?: {w})? (?P<cue>dropping|reverting|backing out|yanking|backing) (?:it|this|that|them|(?:the|this|that|these|those) (?:{w} )?(?:patch|patches|commit|commits|series|change|changes)) (?:out of|from)\b",
    ),
    p(
        WillRevert,
        r"\b(?:i've|i have|we've|we have|i|we) (?:now |just )?(?P<cue>removed|dropped|reverted|pulled|yanked|backed out) (?:the|this|that|these|those|your) (?:{w} )?(?:patch|patches|commit|commits|change|series) (?:from|out of)\b",
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
    // A new version sent is a drop of the tested one when it says it
    // avoids what the robot saw; said bare ("I just sent v2 of my fixes",
    // answering another reviewer) it may keep the regressing change: a
    // doubt.
    p(
        Superseded,
        concat!(
            sent_new_version!(),
            r"[^.;]{0,60}?\b(?:which|that|to) (?:avoids?|fix(?:es)?|address(?:es)?|solves?|resolves?|drops?|removes?|reverts?|undoes|gets rid of) "
        ),
    ),
    guess(Superseded, false, sent_new_version!()),
    // The culprit's series is set aside.
    p(
        SetsAside,
        r"\b(?:put|leave|keep|set|park|place|putting|leaving) (?:{w} ){0,5}(?P<cue>on hold|aside|on the back-burner|on the backburner|on the back burner|on ice)\b",
    ),
    p(
        SetsAside,
        r"\b(?P<cue>hold off) (?:on |with )?(?:{w} ){0,2}(?:this|it|the patch|the series|the change|merging|applying|queueing|queuing)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we)(?:'m| am|'re| are|'ll| will)? (?P<cue>not going to|no longer going to|won't be|will not be|not planning to|won't|will not) (?:pursue|pursuing|push|pushing|merge|merging|apply|applying|queue|queueing|queuing|take|taking|upstream|upstreaming) (?:this|it|these|the (?:{w} ){0,3}(?:patch|series|change|approach|work|conversion|idea|rework|rewrite|optimi[sz]ation))\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we)(?:'m| am|'re| are|'ll| will)? (?:not|no longer) (?P<cue>pursue|pursuing|upstreaming) (?:this|it|the (?:{w} )?(?:patch|series|change|approach|work))\b",
    ),
    p(
        SetsAside,
        r"\b(?:i|we|i'm|i am|we're|we are)(?:'ll| will|'d| would| should|'re going to| are going to|'m going to| am going to)? (?:{w} )?(?P<cue>abandon|withdraw|retract|abandoning|withdrawing|retracting|dropping) (?:this|the|my|our|that) (?:{w} )?(?:patch|patches|patchset|patch set|series|approach|change|idea|proposal|rfc|one|work|set)\b",
    ),
    p(
        SetsAside,
        r"\b(?:this|the|that|my|our) (?:{w} )?(?:patch|patchset|patch set|series|approach|change|work|idea|rfc|proposal|set|version) (?:is|was|has been|stays|remains) (?:{w} )?(?P<cue>abandoned|shelved|withdrawn|on hold|parked|deferred|postponed|on ice|on the back burner|off the table|dead)\b",
    ),
    p(
        SetsAside,
        r"\b(?P<cue>park|parking|parked|shelve|shelving|shelved) (?:this|the|my|our|it|that|them|these|v[0-9]+)\b",
    ),
    neg(
        SetsAside,
        r"\b(?P<cue>decided not to|agreed not to|decided against|agreed against|chose not to|choose not to|decide not to|decided to not) (?:continue|continuing|pursue|pursuing|proceed|proceeding|merge|merging|go ahead|going ahead|apply|applying)\b",
    ),
    p(
        SetsAside,
        r"\bconsider (?:this|it|that|v[0-9]+|the (?:{w} )?(?:patch|series|patchset|set)|this (?:patch|series|patchset|set)) (?:{w} )?(?P<cue>withdrawn|dropped|dead|abandoned|retracted)\b",
    ),
    p(
        SetsAside,
        r"\b(?:leave|leaving) (?:this|it|that|the (?:{w} )?(?:idea|series|patch|patchset|approach|work)|this (?:idea|series|patch|patchset|approach|work)) (?P<cue>alone|aside) (?:for now|for the time being|for a while|until|till)\b",
    ),
    p(
        SetsAside,
        r"\b(?P<cue>stop pushing|stop sending|stop posting|stop pursuing|stop working on) (?:this|the|my|it|these)\b",
    ),
    p(
        SetsAside,
        r"^(?P<cue>withdrawing|abandoning|shelving|parking) (?:the|this|my|our) (?:{w} )?(?:series|patchset|patch set|patches|patch|rfc|set|work)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i've|i have|we've|we have|i|we) (?P<cue>given up on|gave up on|give up on) (?:this|that|the|my|our) (?:{w} )?(?:series|patchset|patch|approach|idea|work)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we) (?:won't|will not|am not going to|'m not going to|don't plan to|do not plan to) (?P<cue>send a v|post a v|send another version|post another version|resend|repost|send a new version|post a new version)",
    ),
    neg(
        SetsAside,
        r"\b(?:i'm|i am|we're|we are) (?P<cue>not taking|not applying|not merging|not queueing|not queuing|not picking up) (?:this|the|that|these|it|your)\b",
    ),
    p(
        SetsAside,
        r"\b(?:hold|holding|held|keep|keeping) (?:the |this |that |it |them |my |our )?(?:{w} ){0,4}(?P<cue>back for now|back until|back till|back for the time being|back for this cycle|back from this cycle|back from the merge window|out for now|out until|out till|out for the time being|out for this cycle|out of this cycle)\b",
    ),
    neg(
        SetsAside,
        r"\b(?P<cue>leave it out|leave this out|leave them out|leave that out|leave the series out|leave the patch out|won't go in|will not go in|won't be merged|will not be merged|won't be applied|will not be applied|won't be queued|will not be queued|won't be sent|will not be sent|not going upstream|won't go upstream|not going in|isn't going in|is not going in|not going to go in)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i|we|let's|let us|i'll|we'll|i'm|we're)(?:'ll| will| should| can| am| are)? (?:{w} )?(?P<cue>defer|postpone|deferring|postponing) (?:this|the|my|our|that|it)(?: {w}){0,3} (?:(?:to|until|till) (?:the |a )?(?:next|later|another|following) (?:cycle|release|merge window|version|kernel)|for now|for a while|for the time being)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i|we|i'm|i am|we're|we are)(?:'ll| will)? (?P<cue>withdrawing|withdraw|abandoning|abandon|dropping|retracting|shelving|parking) (?:v[0-9]+|version [0-9]+|the v[0-9]+|this version|this revision|the rfc|this rfc)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:let's not|let us not|we shouldn't|we should not|i won't|we won't|i will not|we will not|i'd rather not|we'd rather not) (?P<cue>pursue|pursuing|continue with|go further with) (?:this|that|these|the) (?:{w} )?(?:series|patch|patchset|approach|idea|work|rfc|change)(?:[^.]{0,20})\b(?:any further|further|anymore|any more|any longer)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:series|patchset|patch set|rfc|approach)(?: {w}){0,3} (?P<cue>isn't going to be|is not going to be|won't be|will not be|isn't being|is not being|isn't headed|is not headed|isn't heading|is not heading|isn't going|is not going) (?:{w} )?(?:merged|in|upstream|applied|accepted|queued|taken)\b",
    ),
    p(
        SetsAside,
        r"\b(?:we|i|we've|i've|we have|i have|we're|i'm) (?:{w} )?(?:settled on|went with|chose|picked|going with|go with|decided on|opted for|agreed on) (?:a |an |the )?(?P<cue>different design|different approach|other approach|another approach|alternative approach|different solution|another solution|alternative design|different direction|other design|other solution)\b",
    ),
    // Families written while reading paraphrase set G (measured on H first).
    p(
        Declines,
        r"\b(?:i think|i believe|i'd say|i would say|imo|imho)?,? ?(?:that is|that's|this is|it's|it is) (?:the|a) (?P<cue>right trade|right tradeoff|right trade-off|good trade|fair trade|reasonable trade|worthwhile trade|trade worth making)\b",
    ),
    p(
        Declines,
        r"\b(?:i|we) (?:would |'d )?(?P<cue>prefer keep|prefer to keep|prefer keeping|rather keep|'d keep|will keep|'ll keep) (?:it|this|the fix|the change|the patch|the commit|things)(?: as is| as it is| as-is| in place)?(?:[.,;!]|$| and| since| because| for)",
    ),
    p(
        Declines,
        r"\b(?:i'm|i am|we're|we are) (?:happy|fine|ok|okay|content|willing) (?:to|with) (?P<cue>eat it|eat this|eat that|eat the|take the hit|live with it|live with this|live with that|pay that price|pay this price|pay the price)\b",
    ),
    p(
        Declines,
        r"\b(?:i think |so |ok,? |okay,? |yeah,? )?(?:we|i) (?:just |simply |can just |will just |'ll just )(?P<cue>live with it|live with this|live with that|eat it|eat this|accept it|accept this)\b",
    ),
    p(
        Declines,
        r"(?:^|[.;:,!] )(?P<cue>wont fix|won't fix|will not fix)(?:[.,;:!]|$)",
    ),
    p(
        Declines,
        r"\b(?:i'll|i will|we'll|we will|i'd|we'd) (?:happily |gladly )?(?P<cue>take a few percent|take a couple of percent|take a small hit|take the hit|take a few %|take some loss|take the loss|take a slowdown|take the slowdown)(?: {w}){0,4} over\b",
    ),
    p(
        Declines,
        r"\b(?:the |this )?(?:benchmark|test|workload|microbenchmark) (?:was |is |just )?(?P<cue>measured the bug|measuring the bug|measures the bug|measured a bug|measuring a bug|benefited from the bug|profited from the bug|benefiting from the bug)\b",
    ),
    p(
        Declines,
        r"\bthe (?:old|previous|earlier|original|former) (?:numbers|number|speedup|speed-up|results|result|score|performance|throughput|fast path) (?:only )?(?:came|come|comes|were|was) (?P<cue>from not|from skipping|from cheating|from doing less|from missing|from ignoring|from a bug|from the bug|from broken|only fast because|only that good because|that good because)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>no action from me|no action from us|nothing to fix here|nothing for me to fix)\b",
    ),
    p(
        Declines,
        r"\b(?:i think |i'm sure |i guess )?(?:we'll|we will|we can|we shall) (?P<cue>survive)(?: it| this| that)?(?:[.,;!]|$)",
    ),
    p(
        Declines,
        r"\b(?:yeah,? |yes,? |well,? )?(?:that's|that is|this is|it's|it is) (?P<cue>intentional|deliberate|by design|on purpose)(?:[.,;:!)]|$| -|\s+[^a-z0-9\s])",
    ),
    p(Declines, r"(?:^|[.;:!] )(?P<cue>expected)(?:[,:;] | -|\. )"),
    p(
        Disputes,
        r"\b(?P<cue>bisection's off|bisect's off|bisection is off|bisect is off|re-check your bisect|recheck your bisect|re-check the bisect|recheck the bisect|redo the bisect|re-do the bisect|bisect pointed at the wrong|bisection pointed at the wrong|bisect points at the wrong|bisect picked the wrong|bisection picked the wrong)\b",
    ),
    neg(
        Disputes,
        r"(?:^|[.;:!] )(?P<cue>can't be this one|cannot be this one|can't be this commit|cannot be this commit|can't be this patch|cannot be this patch|can't be that one|can't be it|cannot be it|not this one)(?:[.,;:!]|$)",
    ),
    p(
        Disputes,
        r"\b(?:change|commit|patch|it|this)\b (?:{w} ){0,3}(?:cannot|can't|could not|couldn't|can not) (?:possibly )?(?P<cue>regress it|regress this|regress the|make the kernel slower|make it slower|slow it down|slow down the|slow the|cause this|cause the regression|cause that)\b",
    ),
    p(
        Disputes,
        r"\b(?:attributed|blamed|pinned|bisected)(?: {w}){0,3} (?P<cue>to the wrong change|to the wrong commit|to the wrong patch|on the wrong change|on the wrong commit|on the wrong patch)\b",
    ),
    p(
        Disputes,
        r"\b(?:i|we) (?P<cue>doubt very much|very much doubt|seriously doubt|strongly doubt|highly doubt|really doubt)(?: that)? (?:it's|it is|this is|my patch is|the patch is|the commit is|this commit is|that's|that is) (?:the|a) (?:culprit|cause|problem)\b",
    ),
    p(
        Disputes,
        r"\b(?:the regression|the drop|the slowdown|it|this|the loss|the difference) (?:has to|must|needs to|should) (?P<cue>come from somewhere else|come from something else|be coming from somewhere else|be caused by something else|be somewhere else)\b",
    ),
    p(
        Disputes,
        r"\b(?:is|are|isn't|is not|aren't|are not) (?P<cue>not related with|not related to|unrelated to|unrelated with|nothing to do with) (?:my|this|the|our) (?:commit|patch|change|series)\b",
    ),
    p(
        Disputes,
        r"(?:^|[.;:!] )(?:this|the report|that|the result|the bisect|the bisection|this report) (?:is|seems|looks) (?P<cue>mistaken|misattributed|mis-attributed)\b",
    ),
    guess(
        Disputes,
        false,
        r"\b(?:check|code|path|helper|function|hunk|it)(?: {w}){0,3} (?:is|are|gets|get) (?P<cue>compiled out|not compiled in|not built in|ifdef'd out|ifdefed out|configured out)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:the patched kernel|patched|the patch|with the patch|the commit|the new kernel|both kernels|the two kernels|it) (?:is|are|stays|stay|comes out|come out|lands|land) within [0-9.]+ ?(?P<cue>% of the base|% of base|% of the parent|% of the baseline|% of the unpatched|% of the old| percent of the base| percent of the parent| percent of the baseline)",
    ),
    p(
        CannotReproduce,
        r"\b(?:i|we) (?:dont|don't|do not|didn't|did not|cant|can't|cannot) (?:see|observe|notice|get|find) (?P<cue>any regression|any slowdown|any drop|any difference|any degradation|the regression|the slowdown|the drop)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:which is|that's|that is|those are|they are|they're|the two are|both are|results are|numbers are) (?P<cue>indistinguishable|identical within noise|the same within noise)\b",
    ),
    p(
        Noise,
        r"(?:^|[.;:!] )(?:it's |it is |that's |that is |this is |all )?(?P<cue>within error|within the error|within noise|within the noise|within error bars|within the error bars|within margin of error|within the margin of error)(?:[.,;:!]|$)",
    ),
    p(
        Noise,
        r"\b(?:call|calling|consider|this is|it's|it is|that's) (?:this |it )?(?P<cue>instability rather than|noise rather than|variance rather than|jitter rather than) (?:a |any )?(?:regression|real regression)\b",
    ),
    p(
        Noise,
        r"\b(?:the )?(?:test|benchmark|workload|result|results|machine) (?:is |was |just )?(?P<cue>flapping|flip-flopping|flipflopping|bouncing) between\b",
    ),
    p(
        Layout,
        r"(?:^|[.;:!] )(?P<cue>smells like alignment|smells like an alignment|looks like alignment|smells like cache alignment|smells like code alignment|smells like a layout|looks like a layout)\b",
    ),
    p(
        Layout,
        r"\b(?:measuring|measured|seeing|seen|measure|see)(?: is)? (?P<cue>placement, not|layout, not|alignment, not|code placement, not|data placement, not)\b",
    ),
    p(
        Withdraws,
        r"\b(?:caused by|due to|came from|comes from) (?:a |an |the )?(?P<cue>bios update|bios change|firmware update|firmware change|bios setting|microcode update) on (?:our|the) (?:test )?(?:box|machine|system|server|platform)\b",
    ),
    p(
        Withdraws,
        r"\b(?:was|were|is|be|it's|it is|as) an? (?P<cue>environment issue|environment problem|setup issue|setup problem|issue on our side|problem on our side|mistake on our side|error on our side)\b",
    ),
    p(
        Withdraws,
        r"\b(?:we|i) (?:have |'ve )?(?P<cue>dropped this from our|removed this from our|dropped it from our|removed it from our|will not report it|won't report it|will not report this|won't report this)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:the|your|this|that) (?:fix|patch|one-liner|follow-up|follow up|fixup) (?P<cue>resolves the regression|fixes the regression|cures the regression|solves the regression|resolves the slowdown|fixes the slowdown|restores the throughput|restores the performance|restores the score|restores the numbers)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:i|we) (?:get|got|see|saw) (?:the )?(?P<cue>original numbers back|old numbers back|previous numbers back|baseline numbers back|numbers back|performance back|throughput back|score back)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:the )?(?:score|throughput|performance|result|number|numbers) (?P<cue>recovered to|came back to|is back to|returned to|went back to)\b",
    ),
    p(
        ConfirmsFix,
        r"\bthe regression of [^ ]{3,80} (?P<cue>is gone|has gone|went away|goes away|disappeared|is fixed)\b",
    ),
    p(
        WillFix,
        r"\b(?:a|the) (?:patch|fix) (?:to (?:{w} ){1,8})?(?P<cue>will follow|is to follow|to follow shortly|will follow shortly|follows shortly|coming shortly|coming soon)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'm|i am|we're|we are) (?P<cue>going to fix|gonna fix) (?:that|this|it)\b",
    ),
    p(
        WillRevert,
        r"\b(?:please|pls|could you|can you|would you)(?: please)? (?P<cue>drop this|drop it|drop the patch|drop that|pull it out|pull this out|pull the patch out|take it out|take this out)(?: one)? (?:from|of|out of) (?:{w} ){0,2}(?:tree|branch|for-next|next|mm-everything|mm-unstable|mm-stable|linux-next|queue|{w})\b",
    ),
    p(
        SetsAside,
        r"\b(?:series|patchset|patch set|rfc|version|v[0-9]+)(?: {w}){0,3} (?:has been|have been|was|were|is|got) (?P<cue>superseded and shelved|superseded and withdrawn|superseded and abandoned|superseded and dropped|shelved|abandoned)\b",
    ),
    p(
        SetsAside,
        r"\b(?:the )?(?:patchset|patch set|series|rfc)(?: {w}){0,2} (?:was|has been|got|is) (?P<cue>rejected|withdrawn|abandoned|shelved)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i've|i have|we've|we have) (?P<cue>withdrawn the series|withdrawn the patchset|withdrawn the patch|withdrawn this series|withdrawn the rfc|withdrawn it)\b",
    ),
    // Written on paraphrase sets H and I (their misses), measured on J.
    // The robot's team takes a report back, giving its reason after.
    p(
        Withdraws,
        r"^(?:so |sorry,? |oops,? )?(?:please|kindly|pls) (?P<cue>disregard|ignore)(?: it| this| this one| the report| this report| that)? ?(?:[;:,-]|\xe2\x80[\x93\x94])[^.]{0,80}\b{setup_fault}\b",
    ),
    p(
        Withdraws,
        r"\b(?:please|kindly|pls) (?P<cue>ignore it|ignore this|disregard it|disregard this|ignore that|disregard that)(?:[,;:]| (?:report|one|mail|email|message)\b)[^.]{0,80}\b{setup_fault}\b",
    ),
    p(
        Withdraws,
        r"\b(?:we're|we are|we'll|we will|we've|we have) (?P<cue>dropping|withdrawing|retracting|withdrawn|retracted|dropped) (?:this|the|our|that) (?:{w} )?(?:report|one)\b",
    ),
    p(
        Withdraws,
        r"\b(?:we|i) (?P<cue>retract|withdraw) (?:this|that) one\b",
    ),
    p(
        Withdraws,
        r"\b(?:report|regression report)(?: {w}){0,2} (?:was|were) (?P<cue>sent by mistake|sent in error|sent out by mistake|sent out in error|sent wrongly|sent incorrectly|sent accidentally)\b",
    ),
    // A fix puts the numbers back.
    p(
        ConfirmsFix,
        r"\b(?:performance|throughput|score|numbers|iops|pps|bandwidth|result|results) (?:{w} ){0,2}(?P<cue>recover|recovers|recovered) (?:to|back)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:{w}) (?:is|are|was|were) (?P<cue>back with|back after) (?:the|this|your|that|his|her) (?:{w} )?(?:fix|patch|change|fixup)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:fix|patch|one-liner|change|fixup)\b[^.]{0,40}\b(?P<cue>right where it was|right where they were|back where it was|back where they were)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:{w}) (?:is|are|was|were) (?:{w} )?(?P<cue>back to the old|back to the earlier|back to the previous|back to the original|back to the pre-regression|back to old) (?:numbers|level|levels|values|results|score|scores|figures)\b",
    ),
    // A fix is promised.
    p(
        WillFix,
        r"\b(?:a |the )?(?:fix|patch|fixup)(?: is)? (?P<cue>coming tomorrow|coming today|coming this week|coming next week|incoming|on the way|on its way|forthcoming|in the works)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will) (?:{w} ){1,10}and (?P<cue>post a fix|send a fix|post the fix|send the fix|post a patch|send a patch|post the patch|send the patch|submit a fix|submit a patch)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|i am going to|i'm going to|we are going to|we're going to) (?P<cue>prepare|cook|cook up|put together|come up with|whip up) (?:a |the |an )?(?:{w} )?(?:fix|patch|fixup)\b",
    ),
    // A revert decided.
    p(
        WillRevert,
        r"^(?:ok,? |okay,? |so,? )?(?P<cue>reverting)[,.;:!]",
    ),
    p(
        WillRevert,
        r"^(?:ok,? |okay,? |so,? )?(?P<cue>reverted in|reverted from|reverting in|reverting from|reverted for now|reverting for now)(?: [a-uw-z][\w./-]*)?[,.;:!](?:\s|$)",
    ),
    p(
        WillRevert,
        r"^(?:i'm |i am |we're |we are |so |ok,? )?(?P<cue>dropping|dropped) (?:the|this|that|your) (?:commit|patch|series|change) from\b",
    ),
    p(
        WillRevert,
        r"\bplease (?:just )?(?P<cue>revert) (?:it|this|this one|that|the commit|commit [0-9a-f]{7,40}|[0-9a-f]{7,40})(?: for now| asap)?(?:[.;!]|$)",
    ),
    p(
        WillRevert,
        r"\b(?:i|we) (?:agree|am fine|'m fine|are fine|'re fine|am ok|'m ok|'m okay|am okay) (?:to|with) (?P<cue>revert|reverting|dropping) (?:it|this|that|the commit|this commit|the patch|this patch|the change|this change)(?:[.,;!]|$| for now| from)",
    ),
    p(
        WillRevert,
        r"\b(?:a|the) (?P<cue>revert) (?:will be|is going to be|is queued|is on its way|goes) (?:in|into|out|to)\b",
    ),
    // The tested series is set aside.
    p(
        SetsAside,
        r"\b(?:i|we)(?:'ve| have)? (?P<cue>withdrawn|abandoned|shelved|parked) (?:the|this|my|our) (?:whole |entire )?(?:series|patchset|patch set|version|rfc|branch)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we) (?:don't|do not|won't|will not) (?:intend to|plan to|plan on|intend on) (?P<cue>submit|submitting|upstream|upstreaming|post|posting) (?:it|this|that|them)(?: series| patch| one)?(?:[.,;!]|$)",
    ),
    neg(
        SetsAside,
        r"^(?P<cue>not merging|not applying|not taking|won't merge|won't apply|won't take|will not merge|will not apply|will not take) (?:this|it|that|the series|these|this one)\b",
    ),
    p(
        SetsAside,
        r"\b(?:series|patchset|patch set|approach|rfc|branch)(?: {w}){0,1} (?:is|was|has been|is being|got) (?P<cue>replaced by|dropped in favour of|dropped in favor of|abandoned in favour of|abandoned in favor of)\b",
    ),
    p(
        SetsAside,
        r"\b(?:series|rfc|patchset) is (?P<cue>dead|going nowhere)(?:[.,;!]|$)",
    ),
    neg(
        SetsAside,
        r"\b(?:rfc|series|patchset|approach)(?: {w}){0,2} (?P<cue>isn't going anywhere|is not going anywhere|won't go anywhere|won't be merged|will not be merged|isn't going in|is not going in)(?: anyway)?(?:[.,;!]|$)",
    ),
    // The numbers cannot come from the patch.
    p(
        Disputes,
        r"\b(?:kernels|builds|kernel|baseline|points|commits|runs)(?: {w}){0,3} (?:were |was |are |is )?(?:built|compiled|measured|tested) (?:with|using|by) (?:two )?(?P<cue>different compilers|different compiler versions|different gcc versions|a different gcc|different gcc|a different compiler|different toolchains|different clang versions)\b",
    ),
    neg(
        Disputes,
        r"\b(?:numbers|results|data|figures)(?: {w}){0,4} (?P<cue>say nothing|tell us nothing|tell nothing) about\b",
    ),
    neg(
        Disputes,
        r"\b(?:do not|don't|can't|cannot|shouldn't|should not) (?P<cue>blame) (?:the|this|my|that|our) (?:{w} ){0,2}(?:patch|commit|change|series)\b",
    ),
    p(
        Disputes,
        r"\b(?:comes|came|is coming|stems|stem) from\b[^.]{0,80}\b(?P<cue>not from the|not from this|not from my|not from that|not from your)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>nowhere near) (?:anything|what|the code|the functions?|the path|the paths) (?:that )?(?:i|we|this patch|the patch|my patch|the commit) (?:touched|changed|modified|touch|change)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>doesn't contain|does not contain|didn't contain|did not contain) (?:a single byte of|any of|a line of|a single line of|a byte of) (?:it|this|that|the change|the patch|my change)\b",
    ),
    neg(
        Disputes,
        r"\b(?P<cue>doesn't build into anything|does not build into anything|doesn't get built into anything)\b",
    ),
    guess(
        MaybeDisputes,
        true,
        r"\b(?:your|the test|the|this) (?:machine|box|system|test machine|test box|testbox|platform) (?P<cue>doesn't have|does not have|doesn't even have|does not even have)\b",
    ),
    // The same numbers on both sides.
    p(
        CannotReproduce,
        r"\b(?:(?:numbers|results|result|throughput|score|scores|performance|iops|runs) (?:{w} ){0,3}(?:are|is|were|was) |the )(?P<cue>same result on both|same results on both|same numbers on both|identical on both|equal on both|the same on both)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:numbers|results|throughput|score|scores|performance|iops|bandwidth) (?:before and after|with and without)(?: {w}){0,4} (?:is|are|were|was) (?P<cue>equal|identical|the same)\b",
    ),
    // Run-to-run wobble.
    p(
        Noise,
        r"\b(?:turbo|thermal|frequency|boost)(?: and (?:thermal|turbo|frequency))? (?P<cue>wobble|jitter|fluctuation|fluctuations)\b",
    ),
    p(
        Noise,
        r"\b(?:just|only|simply|merely) the (?P<cue>noise) of the (?:test|benchmark|machine|box)\b",
    ),
    p(
        Noise,
        r"\b(?:well )?(?P<cue>inside the spread|within the spread|inside the noise|inside the variance)\b",
    ),
    // The cost is accepted, in words of keeping the change.
    p(
        Declines,
        r"\b(?:we|i)(?:'re| are| am|'m) (?P<cue>keeping) (?:it|them|this|that|the change|the patch|the commit|the check|the checks|the barrier|the annotations)(?: as is| as it is)?(?:[.;!]|$)",
    ),
    neg(
        Declines,
        r"\b(?P<cue>not going to change it back|not going to be made optional|won't be made optional|will not be made optional|won't change it back|will not change it back|not going to be reverted)\b",
    ),
    p(
        Declines,
        r"(?:^|\b(?:so|and|,) )(?:it|this|that|they|the change|the commit|the patch|the check|the barrier) (?:(?:is )?expected and )?(?P<cue>stands|will stay|stays|is staying|are staying)(?:[.,;!]|$)",
    ),
    p(
        Declines,
        r"\b(?P<cue>costs what it costs|cost what it costs|is what correct code costs|what correct code costs|is simply where we land|is where we land)\b",
    ),
    p(
        Declines,
        r"\bwe (?P<cue>accept this|accept that|accept it|accept the cost|accept the regression|accept the loss)(?:[.,;!]|$)",
    ),
    p(
        Declines,
        r"\bwithin what (?:i'm|i am|we're|we are) (?P<cue>willing to accept|happy to accept|prepared to accept|ok with|fine with)\b",
    ),
    neg(
        Declines,
        r"\b(?P<cue>not worth optimising for|not worth optimizing for|not worth optimising|not worth optimizing|not worth chasing|not worth the complexity)\b",
    ),
    p(
        Declines,
        r"^(?P<cue>intended|intentional|deliberate|by design|as designed|as intended|working as intended|works as intended)[.!]?$",
    ),
    guess(
        MaybeDeclines,
        false,
        r"\b(?P<cue>kind of the point|exactly the point|precisely the point)\b",
    ),
    // Written on the misses of paraphrase sets J and K. Each cue is the
    // rare part of its phrase (a common word as a cue sends many sentences
    // to the regexes).
    // The cost kept, in other words: decided worth it, a revert refused
    // for a benchmark's number, the test on the losing side of a
    // trade-off, a test of what nobody does, the accepted cost, intended
    // behaviour, the trade taken.
    p(
        Declines,
        r"\b(?:decided|agreed|concluded|judged)(?: that)? (?:it's|it is|it was|it'd be|it would be|this is|this was|that's|that it's|that it was) (?P<cue>worth it|worth the cost|worth the price|worth paying|a price worth paying|the right call|the right trade)\b",
    ),
    neg(
        Declines,
        r"\b(?:i'm|i am|we're|we are|i'm just|we're just) (?P<cue>not reverting|not going to revert|not gonna revert|not rolling back|not going to roll back|not backing out|not going to back out) (?:a|an|the|this|that|it|my|our)\b[^.]{0,80}\b(?:for|over|because of) (?:a|an|one|the|this|that|some|[0-9.]+ ?%)",
    ),
    p(
        Declines,
        r"\b(?:test|benchmark|workload|microbenchmark|testcase|test case|job|case)(?: {w}){0,2} (?:happens to |just happens to |simply |just )?(?:sit|sits|fall|falls|land|lands|be|is|ends up|end up) (?P<cue>on the other side|on the losing side|on the wrong side|on the bad side)\b",
    ),
    neg(
        Declines,
        r"\b(?:which|that|something) (?:nobody|no one|no-one|noone) (?:really |actually |sane |realistically |ever |in practice )?(?:does|do|runs|run|uses|use|cares about|would do|would run|needs)\b[^.]{0,120}\b(?:better|faster|wins|helps|improves) (?:for |on |in )?(?P<cue>everything else|every other|all the other|real workloads|most workloads)\b",
    ),
    p(
        Declines,
        r"\b(?:this|that|it) (?:is|'s|was) (?:all |entirely |fully |completely |simply )?(?P<cue>intended behaviour|intended behavior|expected behaviour|expected behavior|intentional behaviour|intentional behavior|deliberate behaviour|deliberate behavior|intended outcome|expected outcome|intended consequence|expected consequence|expected trade-off|expected tradeoff|intended trade-off|intended tradeoff|deliberate trade-off|deliberate tradeoff|expected cost|intended cost)\b",
    ),
    p(
        Declines,
        r"\b(?P<cue>accepted cost|accepted price|accepted trade-off|accepted tradeoff|accepted penalty|accepted overhead|accepted regression)\b",
    ),
    p(
        Declines,
        r"\b(?:i'll|i will|i'd|we'll|we'd|happy to|gladly|i'd happily|i happily) (?P<cue>take that trade|take the trade|take this trade|make that trade|take that deal|take that trade-off|take that tradeoff)\b",
    ),
    // Reports disputed: the two kernels differ in more than the commit,
    // "look elsewhere", "it isn't coming from this commit".
    p(
        Disputes,
        r"\b(?:comparing|compare|compared|comparison of|measuring|measured) (?:two|2) (?P<cue>different kernels|different configs|different configurations|different builds|different toolchains|different setups|different machines)\b",
    ),
    p(
        Disputes,
        r"\b(?:kernels|sides|builds|runs|kernel|side|one|commit|parent|base|baseline) (?:were |was |are |is |got )?(?:built|compiled|booted|configured|run) (?:with|using|on) (?P<cue>different compilers|different compiler|different configs|different kernel configs|different configurations|different toolchains|different command lines|different cmdlines|different boot options|different firmware)\b",
    ),
    p(
        Disputes,
        r"\b(?:one side|one of the kernels|one kernel|the parent|the base|the baseline|the commit|your base|your baseline)(?: of the comparison)? (?:was |is |got |has been )?(?:booted with|built with|compiled with|configured with|run with)\b[^.]{0,60}(?P<cue>mitigations=|config_|debug_|gcc-|clang-)",
    ),
    p(
        Disputes,
        r"(?:^|[.;:!] )(?:so |please |you'll have to |you need to |better )?(?P<cue>look elsewhere|look somewhere else)(?:[.,;:!]|$)",
    ),
    neg(
        Disputes,
        r"\b(?:isn't|is not|can't be|cannot be|can not be|doesn't|does not|won't be) (?P<cue>coming from it|coming from this|coming from that|coming from my|coming from the commit|coming from the patch|coming from here|come from it|come from this|come from that|come from my|come from the commit|come from the patch)\b",
    ),
    p(
        Disputes,
        r"\b(?P<cue>surprised if) (?:this|the|that) (?:{w} )?(?:bisect|bisection|result|report|regression)(?: {w}){0,2} (?:holds up|is real|stands|is correct|is right|reproduces)\b",
    ),
    // Not reproduced: flat, or the same numbers, on the speaker's boxes.
    p(
        CannotReproduce,
        r"\b(?:is|are|stays|stay|looks|look|remains|remain|was|were|comes out|came out) (?:completely |totally |perfectly |dead )?(?P<cue>flat for me|flat here|flat on my|flat on our|flat locally)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:is|are|stays|stay|looks|look|remains|remain|was|were|comes out|came out) (?:completely |totally |perfectly )?(?P<cue>unchanged|identical)(?: {w}){0,1} (?:for me|on my (?:{w} )?(?:box|boxes|machine|machines|system|systems|setup|test box)|on our (?:{w} )?(?:box|boxes|machine|machines|systems|setup|test box))\b",
    ),
    p(
        CannotReproduce,
        r"^(?:so |so, )?(?P<cue>nothing here|nothing to see here|nothing there)[.!]?$",
    ),
    neg(
        CannotReproduce,
        r"\b(?:there's|there is|there was|i see|i saw|i get|i got|we see|we saw|i measured|i'm seeing|i am seeing) (?P<cue>no regression|no slowdown|no drop|no difference|no degradation|no measurable difference|no change) (?:at all )?(?:on my end|on my side|at my end|on our end|on our side|here|for me|locally|on my (?:{w} )?(?:box|machine|system|setup))\b",
    ),
    // Noise: a test that moves by as much between boots or runs.
    p(
        Noise,
        r"\b(?:bounces around|bounce around|jumps around|jump around|swings|swing|fluctuates|fluctuate|varies|vary|wobbles|wobble|moves|move)(?: by)? (?:{w} ){0,2}(?:[0-9.]+(?:-[0-9.]+)? ?%|a lot|wildly|quite a bit)[^.]{0,40}\b(?P<cue>between boots|between reboots|between runs|across boots|across reboots|across runs|from run to run|from boot to boot|between kernels|between builds|between machines)\b",
    ),
    neg(
        Noise,
        r"\b(?:wouldn't|would not|won't|don't|do not|shouldn't|should not|i'd not) (?P<cue>read anything into|read much into|read too much into|read a lot into) (?:this|it|that|these|those|the)\b",
    ),
    p(
        Noise,
        r"\b(?P<cue>within measurement error|within the measurement error|within measurement noise|within error margin|within the error margin|within run-to-run variation|within the run-to-run variation|within run to run variation|within normal variation|within the normal variation)\b",
    ),
    // A report withdrawn: "please disregard it".
    p(
        Withdraws,
        r"\b(?:please|kindly|pls|so please|you can) (?P<cue>disregard it|ignore it|disregard this one|ignore this one)(?:[.,;:!]|$)",
    ),
    // A fix promised: the next version's change named with the
    // regression, a fix being prepared, the bug owned.
    p(
        WillFix,
        r"\b(?P<cue>v2 will|v3 will|v4 will|v5 will|v6 will|v7 will|v8 will|v9 will|next version will|next revision will|next spin will|respin will|resend will|next iteration will|of the series will|of this series will|of my series will)\b[^.]{0,100}\b(?:regression|slowdown|performance|drop|numbers|throughput|overhead|take care of (?:this|it|that)|fix (?:this|it|that)|address (?:this|it|that)|solve (?:this|it|that)|sort (?:this|it|that) out)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|going to|gonna|will) (?P<cue>prepare|cook up|come up with|put together|write up|whip up|work up|spin up) (?:a|the|an|some) (?:{w} )?(?:fix|patch|fixup|fix-up|follow-up)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will) [^.;]{1,80}?(?P<cue>in the next version|in the next revision|in the next spin|in the respin|in the next iteration|in the next posting|for the next version|for the next revision)\b",
    ),
    p(
        WillFix,
        r"^(?:ok,? |okay,? |sure,? |yes,? |right,? |agreed,? )?(?P<cue>will fix|will address|will rework|will change|will redo)(?: (?:it|this|that|the {w}|them))? (?:in|for|with) (?:v[0-9]+|the next (?:{w} )?(?:version|revision|spin|posting|iteration))\b",
    ),
    p(
        WillFix,
        r"^(?:ok,? |okay,? |sure,? |yes,? |right,? |agreed,? |will do,? )?(?:i'll |we'll |i will |we will |will )(?P<cue>address it|address this|address that)[.!]*$",
    ),
    p(
        WillFix,
        r"\b(?:will|i'll|we'll|i will|we will) (?P<cue>address the|address this|address that) (?:{w} )?(?:regression|slowdown|drop|loss|degradation)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|will) (?P<cue>resend|respin|repost) (?:it |this |the (?:{w} )?(?:patch|series) )?with\b[^.]{0,120}\b(?:regression|performance|numbers|throughput|back|overhead|slowdown)\b",
    ),
    p(
        WillFix,
        r"\b(?:this|that|it) (?:is|'s) (?:clearly |definitely |indeed |obviously |certainly )?(?P<cue>our bug|my bug|a bug in my)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>needs fixing|need fixing|needs to be fixed|need to be fixed)\b[^.]{0,30}\b(?:i'll|i will|we'll|we will)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>let me fix)(?: this| it| that)(?: properly| up| first| now)?(?:[.,;:!]|$)",
    ),
    p(
        WillFix,
        r"\b(?:i|we|i've|we've|i already|we already) (?P<cue>have a fix|have a patch|have the fix|have a fixup|have a quick fix|have a draft fix|got a fix|got a patch|already have a fix|already have a patch)\b(?:[^.]{0,120}\b(?:i'll|i will|will|we'll|we will) (?:post|send|submit)| for (?:this|it|that)\b| in my (?:local )?(?:tree|branch|queue))",
    ),
    p(
        WillFix,
        r"\b(?:will|i'll|we'll|i will|we will) (?P<cue>send a fixup|send a fix-up|post a fixup|post a fix-up|send an incremental|post an incremental|send a follow-up|post a follow-up|send a followup|post a followup)\b",
    ),
    p(
        WillFix,
        r"\b(?P<cue>patch coming|patch is coming|patches coming|fixes coming|fixup coming|patch soon|fix soon)\b",
    ),
    // A revert decided.
    p(
        WillRevert,
        r"\b(?:is|are|'s) (?P<cue>getting reverted|being reverted|going to be reverted|gonna be reverted|going to get reverted)\b",
    ),
    p(
        WillRevert,
        r"\b(?:please |just |can you |could you )?(?P<cue>send a revert|send me a revert|post a revert|submit a revert|send the revert)\b[^.]{0,40}\b(?:i'll|i will|we'll|we will) (?:apply|take|queue|pick|merge)\b",
    ),
    p(
        WillRevert,
        r"\b(?P<cue>revert it is|a revert it is|reverting it is|revert then|revert, then)\b",
    ),
    p(
        WillRevert,
        r"\b(?:let's|let us) (?:just |simply |quickly )?(?P<cue>revert) (?:it|this|that|my|the|your|our)\b",
    ),
    // The culprit's patches set aside in the maintainer's tree: taken out
    // for now or until something is explained, left out of a pull, not
    // queued this cycle, not worth more of anybody's time.
    p(
        SetsAside,
        r"\b(?:pulled|pulling|removed|removing|dropped|dropping|took|taking|taken|yanked|yanking|kicked|kicking)(?: (?:this|it|them|these|those|the (?:{w} )?(?:patch|patches|series|patchset|commit|commits|change|changes)))? (?:out of|from) (?:the |my |our )?(?:[[:word:].-]+[ /]){0,2}(?:for-next|next|unstable|mm-unstable|mm-stable|mm-everything|mm-new|tree|queue|branch|[a-z]+-[0-9][0-9.]*|[0-9]+\.[0-9]+|[a-z]+-next)\b[^.]{0,80}(?P<cue>for now|for the moment|for the time being)\b",
    ),
    p(
        SetsAside,
        r"\b(?:pulled|pulling|removed|removing|dropped|dropping|took|taking|taken|yanked|yanking|kicked|kicking)(?: (?:this|it|them|these|those|the (?:{w} )?(?:patch|patches|series|patchset|commit|commits|change|changes)))? (?:out of|from) (?:the |my |our )?(?:[[:word:].-]+[ /]){0,2}(?:for-next|next|unstable|mm-unstable|mm-stable|mm-everything|mm-new|tree|queue|branch|[a-z]+-[0-9][0-9.]*|[0-9]+\.[0-9]+|[a-z]+-next)\b[^.]{0,80}\b(?P<cue>until|before it goes back|sorted out|sort out|explained)\b",
    ),
    p(
        SetsAside,
        r"\b(?:leave|leaving|keep|keeping) (?:this|the|these|it|them|your|my)(?: (?:{w} )?(?:series|patches|patch|patchset|set|change|changes))? out of (?:the |this |my |our )?(?:[0-9.]+ |next |{w} )?(?P<cue>pull request|pull|merge window|cycle)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:not going to|won't|will not|not gonna|am not going to|i'm not going to) (?P<cue>queue|apply|merge|pick up|take) (?:v[0-9]+|this|it|the series|these|them|the patches|this series)\b[^.]{0,60}\b(?:this cycle|for now|this release|this merge window|given the report|given this report|until|before)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:don't|do not|no need to) (?P<cue>spend more time|spend any more time|waste more time|waste any more time|bother testing|bother with) (?:on )?(?:this|it|that|v[0-9]+)\b",
    ),
    p(
        SetsAside,
        r"\b(?:this|the|that|my) (?:version|series|patch|patchset|rfc|posting|one|v[0-9]+) (?:is|was|has been|got) (?P<cue>superseded by|replaced by|obsoleted by)\b[^.]{0,100}\b(?:different route|different approach|another approach|different design|different way|other approach|another route)\b",
    ),
    // A fix confirmed: all of the loss won back, "the fix works", a full
    // recovery, restored to the parent's level, the numbers back, the
    // regression resolved or no longer there.
    p(
        ConfirmsFix,
        r"\b(?:gets|got|get|wins|won|win|claws|clawed|brings|brought) (?:all of the|all the|every bit of the|the whole) (?:{w} ){0,2}(?P<cue>loss back|regression back|drop back|slowdown back|performance back|throughput back)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:the|this|your|that|his|her|their) (?:{w} )?(?P<cue>fix works|fix worked|fixup works|fixup worked|fix-up works|follow-up works|fix does the trick|fix did the trick|fix does the job|fix did the job|fixup does the trick|fixup did the trick)(?:[.,;:!]|$| fine| well| as expected| nicely| for me| here)",
    ),
    p(
        ConfirmsFix,
        r"\b(?:throughput|performance|numbers|iops|bandwidth|score|it|results?) (?P<cue>recovers completely|recovered completely|recover completely|recovers fully|recovered fully|recover fully|recovers entirely|recovered entirely|recovers totally|recovered totally|recovers in full|recovered in full)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:is|are|was|were|gets|got|has been|have been) (?P<cue>restored to|restored back to) (?:the |its |their )?(?:parent's|parent|base|baseline|original|previous|old|normal|expected|pre-regression|unregressed)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:numbers|results|throughput|performance|score|scores|iops|bandwidth) (?P<cue>are back|is back|were back|was back)(?:[.,;:!]|$| after| with| now| again)",
    ),
    p(
        ConfirmsFix,
        r"\b(?:resolves|resolved|solves|solved|cures|cured) (?:the|this|that) (?:{w} )?(?P<cue>regression|slowdown|degradation)\b",
    ),
    neg(
        ConfirmsFix,
        r"\b(?:with|after|applying) (?:the|this|your|that|his|her) (?:{w} )?(?:fix|patch|fixup|change|follow-up)\b[^.]{0,80}\b(?:regression|slowdown|drop|degradation|problem) (?:is|was) (?P<cue>no longer there|no longer visible|no longer present|no longer seen|not there anymore|not there any more|gone now)\b",
    ),
    // Written on the misses of paraphrase set L.
    // The cost kept: a net win, the price fine by the speaker.
    p(
        Declines,
        r"\b(?P<cue>net win|net positive|net gain|overall win)(?:[.,;:!]|$| overall| for (?:us|everyone|most)| so| and)",
    ),
    p(
        Declines,
        r"\b(?:and |but |so )?(?:that's|that is|this is|which is|it's|it is) (?P<cue>fine by me|fine with me|ok by me|okay by me|ok with me|okay with me)(?:[.,;:!]|$)",
    ),
    // Disputed: numbers that cannot be real.
    neg(
        Disputes,
        r"\b(?:improvement|regression|slowdown|drop|gain|number|numbers|result|results|change|difference|[0-9.]+ ?%)(?: {w}){0,2} (?P<cue>cannot be real|can't be real|can not be real|can't possibly be real|cannot possibly be real|isn't real|is not real)\b",
    ),
    // Not reproduced: the speaker's own build and run show nothing.
    neg(
        CannotReproduce,
        r"\b(?:i|we) (?:still )?(?P<cue>don't see any|do not see any|didn't see any|did not see any|couldn't see any|could not see any) (?:{w} )?(?:regression|slowdown|drop|degradation|difference)(?:[.,;:!]|$| at all| here| locally| on my| on our| with| in my| in our)",
    ),
    neg(
        CannotReproduce,
        r"\b(?:i|we) (?:still )?(?P<cue>don't see the regression|do not see the regression|didn't see the regression|did not see the regression|don't see the slowdown|don't see the drop)(?:[.,;:!]|$| at all| here| locally| on my| on our| with| in my| in our)",
    ),
    // Noise: not significant, the runs' ranges overlapping.
    p(
        Noise,
        r"\b(?P<cue>statistically insignificant|not statistically significant|isn't statistically significant|statistically meaningless|not significant statistically)\b",
    ),
    p(
        Noise,
        r"\b(?:distributions|ranges|error bars|min/max|results|runs|samples|numbers|iterations|confidence intervals)(?: {w}){0,3} (?P<cue>overlap completely|overlap almost entirely|overlap entirely|overlap fully|overlap almost completely|overlap mostly|overlap for the most part|fully overlap|completely overlap|almost completely overlap|largely overlap)\b",
    ),
    // A report taken back: "let's forget about this report", the change
    // caused by something in the lab and not by the commit.
    p(
        Withdraws,
        r"\b(?:let's|let us|please|you can|just|so) (?P<cue>forget about this report|forget this report|forget about this one|forget this one|forget about the report|forget about it)\b",
    ),
    neg(
        Withdraws,
        r"\b(?:our|the) (?:lab|test machine|test box|testbox|infrastructure|setup|set-up|environment|scheduler|harness|side)\b[^.]{0,80}(?P<cue>not by the commit|not by this commit|not the commit|not by the patch|not by your patch|not the patch|not by this patch|not by your commit)\b",
    ),
    neg(
        Withdraws,
        r"\b(?:caused by|due to|came from|comes from) (?:a |an |the |some )?(?:{w} )?(?:background job|background task|other job|another job|second job|noisy neighbour|noisy neighbor|cron job|stray process)\b[^.]{0,60}(?P<cue>not by the commit|not by this commit|not the commit|not by the patch|not the patch|not by your patch|not your patch)\b",
    ),
    // A fix promised: the next version gets it back, something written up,
    // a patch on the list by a day, a fix in the works, the fix simple.
    p(
        WillFix,
        r"\b(?P<cue>v2 will|v3 will|v4 will|v5 will|v6 will|next version will|next revision will|next spin will)\b[^.]{0,100}\b(?:get (?:this|it|that|the (?:{w} )?(?:performance|throughput|numbers)) back|win (?:this|it|that) back|recover (?:this|it|that|the (?:{w} )?(?:loss|performance|throughput)))\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|let me|will|gonna|going to) (?:write|cook|hack|whip|put|knock|type) (?P<cue>something up|something together|up something|together something)\b",
    ),
    p(
        WillFix,
        r"\b(?:patch|fix|fixup|series)\b[^.]{0,80}\b(?:should be|will be|is going to be|goes|will go|'ll be) (?P<cue>on the list|on the lists) (?:by|tomorrow|today|later|soon|shortly|this week|next week|early next|on monday|on tuesday|on wednesday|on thursday|on friday|before)\b",
    ),
    p(
        WillFix,
        r"(?:^|[.;:!] )(?:i'm |i am |we're |we are )?(?P<cue>already on it|on it already|working on a fix|working on the fix|working on a patch|working on it already)(?:[.,;:!]|$)",
    ),
    p(
        WillFix,
        r"\b(?:patch|fix|fixup)\b[^.]{0,80}\b(?:is|are) (?P<cue>in the works|in progress|under way|underway|on its way|on the way)\b",
    ),
    p(
        WillFix,
        r"\bthe (?:{w} )?(?P<cue>fix is straightforward|fix is simple|fix is easy|fix is trivial|fix is obvious|fix is clear|fix looks simple|fix looks straightforward|fix should be simple|fix should be easy|fix should be straightforward)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will|will) (?P<cue>post the fix|send the fix|post a fix|send a fix|submit the fix|submit a fix|post the patch|send the patch out|post a patch|send out a fix|send out the fix|send out a patch)\b",
    ),
    // A revert or drop done: dropped from or backed out of a tree (a
    // period or a thanks after the tree: "for now" or "until" set it aside
    // instead), a revert queued in a tree.
    p(
        WillRevert,
        r"\b(?:patch|commit|series|change|changes|patches|it|this|that|one)\b (?:has been|have been|was|were|is|got|'s) (?:now |just |already )?(?P<cue>dropped from|removed from|backed out of|backed out from|pulled from|taken out of|yanked from|reverted in|reverted from|kicked out of) (?:the |my |our )?[[:word:]./:-]+(?: (?:tree|branch|queue))?(?:[.,;:!]|$| thanks| thank you| now)",
    ),
    p(
        WillRevert,
        r"\b(?:i've|i have|we've|we have|i|we) (?:now |just |already )?(?P<cue>backed this out|backed it out|backed that out|backed the patch out|backed the commit out|backed them out|reverted this|reverted it|dropped this|dropped it) (?:of|from|in) (?:the |my |our )?[[:word:]./:-]+(?: (?:tree|branch|queue))?(?:[.,;:!]|$| thanks| thank you| now)",
    ),
    p(
        WillRevert,
        r"\b(?:a|the) (?P<cue>revert of) (?:the |this |that |your |my )?(?:{w} )?(?:commit|patch|change|[0-9a-f]{7,40})\b[^.]{0,40}\b(?:is|has been|was) (?:now |already |just )?(?:in|queued|applied|merged|on its way|on the way|sitting in)\b",
    ),
    p(
        WillRevert,
        r"\b(?P<cue>i'll revert|i will revert|we'll revert|we will revert|going to revert|gonna revert) (?:this|the|that|my|your|our)(?: {w}){0,2} (?:commit|patch|change|series)?\s*(?:in|from) (?:the |my |our )?[[:word:]./:-]+ (?:tree|branch|queue)\b",
    ),
    // Set aside: a series pulled back, this version not continued, an RFC
    // given up.
    p(
        SetsAside,
        r"\b(?:pulling|pull|pulled|taking|take|took|withdrawing|withdraw|withdrew) (?:this|the|my|our|these|those) (?:{w} )?(?P<cue>series back|patch back|patches back|patchset back|set back|rfc back|version back|posting back)\b",
    ),
    neg(
        SetsAside,
        r"\b(?:i|we) (?:will not|won't|am not going to|are not going to|'m not going to|'re not going to|do not plan to|don't plan to) (?P<cue>continue with|pursue|keep pushing|push) (?:this|these|the|my|our) (?:{w} )?(?:version|series|patch|patches|patchset|set|rfc|approach|idea|posting)\b",
    ),
    p(
        SetsAside,
        r"\bconsider (?:the|this|my|our|that) (?:{w} )?(?P<cue>rfc dead|series dead|patch dead|patchset dead|idea dead|approach dead|posting dead|version dead|rfc abandoned|series abandoned|patch abandoned|patchset abandoned|idea abandoned|approach abandoned|rfc withdrawn|series withdrawn|patch withdrawn|patchset withdrawn|rfc shelved|series shelved|patchset shelved|idea shelved)\b",
    ),
    p(
        SetsAside,
        r"\b(?:this|the|that|my) (?:version|series|patch|patchset|rfc|posting|one|v[0-9]+) (?:is|was|has been|got) (?P<cue>replaced by|superseded by|obsoleted by)\b[^.]{0,120}\b(?:another way|a different way|other way|differently|another approach|a better approach)\b",
    ),
    // A fix confirmed: a metric recovering fully, back where the parent
    // was with the fix in place, the fix bringing it all back, a confirmed
    // recovery, someone's patch working, no difference left.
    p(
        ConfirmsFix,
        r"[[:word:].]+ (?P<cue>recovers completely|recovered completely|recovers fully|recovered fully|recovers entirely|recovered entirely|recovers in full|recovered in full)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>with the fix|with your fix|with the patch applied|with your patch|with the fix applied|fix in place|fix applied|after applying the fix|after applying your fix|after applying the patch|after applying your patch|with v2|with v3|with v4)\b(?:[^.]|\.[[:word:]]){0,100}\b(?:again|matches (?:mainline|the parent|the base|baseline|v[0-9])|same as (?:the parent|the base|mainline|before|v[0-9])|is gone|are gone|is back|are back|back to (?:the parent|normal|where it was|the base|baseline))\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:brings|brought|bring|gets|got|get) (?:it|this|that|everything|the (?:{w} )?(?:performance|throughput|numbers|score)) (?P<cue>back completely|back fully|all the way back|back entirely|back in full)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>we confirm|i confirm|we confirmed|i confirmed|we can confirm|i can confirm|we could confirm|i could confirm) (?:that )?(?:the|this|your|that|his|her|their|[[:word:]-]+'s) (?:{w} )?(?:patch|fix|fixup|change|series|revert|commit)\b[^.]{0,80}\b(?:recovers|recovered|restores|restored|fixes|fixed|resolves|resolved|solves|solved|cures|cured)\b",
    ),
    p(
        ConfirmsFix,
        r"\b[[:word:]-]+'s (?:{w} )?(?P<cue>patch works|fix works|patch worked|fix worked|series works|change works)\b",
    ),
    neg(
        ConfirmsFix,
        r"\bthere (?:is|'s) (?P<cue>no visible difference anymore|no difference anymore|no measurable difference anymore|no visible difference any more|no difference any more|no longer any difference|no longer a difference|no longer any visible difference)\b",
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
    // Families written on paraphrase set M (grammar/evidence-signal.md).
    // A revert done or queued, said in few words.
    p(
        WillRevert,
        r"^(?P<cue>reverted|dropped)(?:,| -| now,)? (?:thanks|thank you|thx)\b",
    ),
    p(
        WillRevert,
        r"^(?:ok|okay|alright|fine|sure)[,.!]? (?P<cue>dropping|reverting) (?:this|it|that|the (?:patch|commit|change|series))(?: one)?(?: then| for now)?[.!]?$",
    ),
    p(
        WillRevert,
        r"\b(?:commit|patch|change|culprit) (?:is|has been|was|got) (?:now )?(?P<cue>reverted|backed out) (?:now )?(?:in|from|on|as of)\b",
    ),
    p(
        WillRevert,
        r"^(?:the )?(?P<cue>revert) (?:is )?(?:queued|applied|pushed|sent|posted|merged) (?:for|in|to|up)\b",
    ),
    p(
        WillRevert,
        r"^(?:it|this|that|the (?:patch|commit|change)) (?P<cue>gets reverted|gets dropped|gets backed out|will be reverted|will be dropped|will be backed out)\b",
    ),
    p(
        WillRevert,
        r"\b(?:is|are) (?P<cue>gone from) (?:the |my |our )?(?:[[:word:].-]+ )?(?:tree|branch|queue|for-next|linux-next)\b",
    ),
    p(
        WillRevert,
        r"\b(?:call|thing to do|option|plan) (?:is|would be|'s) to (?P<cue>back the (?:commit|patch|change) out|back out the (?:commit|patch|change))\b",
    ),
    // A patch or series held back from a tree or a pull.
    p(
        SetsAside,
        r"\bnot (?P<cue>including|sending|pushing|queueing) [^.;]{1,60} (?:in|with|for) (?:this|the|my) [^.;]{0,30}\bpull\b",
    ),
    p(
        SetsAside,
        r"\b(?:i|we) (?:have )?(?:remove|removed|drop|dropped|take|took|pull|pulled) (?:this|the|that|these|those) (?:patch|patches|commit|commits|change|series) (?:out )?(?:of|from) [^.;]{0,40}\b(?P<cue>temporarily|for the time being)\b",
    ),
    p(
        SetsAside,
        r"\b(?P<cue>holding off|hold off|holding back) on (?:applying|merging|queueing|queuing|taking|picking up|sending|pulling)\b",
    ),
    p(
        SetsAside,
        r"\b(?:it'll|it will|they'll|they will|this will|the series will|the patch will|the patches will) (?P<cue>sit|stay|wait|remain) in (?:my|the|our) (?:tree|branch|queue)\b[^.;]{0,20}\buntil\b",
    ),
    p(
        SetsAside,
        r"^(?P<cue>deferred|postponed|punted|pushed back) (?:to|until|till) (?:the )?next (?:cycle|release|merge window|window)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i'll|i will|we'll|we will|i'm going to) (?P<cue>leave) [^.;]{1,50} out of (?:the|my|this|our) (?:[[:word:]-]+ )?(?:pull request|pull|merge window|tree|branch)\b",
    ),
    p(
        SetsAside,
        r"\b(?:i've|i have|we've|we have|i|we) (?P<cue>unqueued|dequeued|un-queued)\b",
    ),
    // A fix being written or on its way.
    p(
        WillFix,
        r"^(?:i'm |i am |we're |we are |currently )?(?P<cue>working on a (?:follow-up|followup|fix|patch))\b",
    ),
    p(
        WillFix,
        r"\b(?:patch|fix|follow-up|followup) (?:is being|are being) (?P<cue>prepared|worked on|written|tested)\b",
    ),
    p(
        WillFix,
        r"\b(?:a|the) (?:fix|patch) for (?:this|it|that) (?P<cue>will be sent|will be posted|will follow|is coming|will go out|is on its way)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|let me) (?P<cue>post|send) (?:a|an) (?:one-liner|one liner|oneliner|quick patch|quick fix|small patch|trivial patch|follow-up patch|followup patch)\b",
    ),
    p(
        WillFix,
        r"\b(?:a|the) (?:patch|fix) (?:restoring|to restore|bringing back|that restores|reinstating)\b[^.;]{0,60}\b(?P<cue>is coming|is on its way|will follow|is in the works)\b",
    ),
    // A fix measured to win the loss back.
    p(
        ConfirmsFix,
        r"\b(?:fix|patch|revert|change) (?P<cue>brings|brought|gets|got|puts|put) [^.;]{0,40}\bback to (?:where|what) (?:they|it) (?:were|was)\b",
    ),
    p(
        ConfirmsFix,
        r"\bwith the (?:fix|patch|revert) applied\b[^.;]{0,60}\b(?P<cue>at parity with|on par with|back to parity|back on par)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:revert|fix|patch)(?: commit)? (?P<cue>recovered|recovers|restored|restores) [^.;]{0,60}\b(?:completely|fully|entirely|in full)\b",
    ),
    // The robot's team takes a report back.
    p(
        Withdraws,
        r"\b(?:it's|it is|this is|this was|it was) a (?P<cue>false report)\b",
    ),
    p(
        Withdraws,
        r"^(?P<cue>false alarm)(?:, sorry| - sorry|, apologies)?[.!]?$",
    ),
    p(
        Withdraws,
        r"\b(?:report|this one) (?:is|has been) (?:hereby )?(?P<cue>withdrawn|retracted)\b",
    ),
    p(
        Withdraws,
        r"\b(?:we're|we are|i'm|i am) (?P<cue>pulling|taking|withdrawing|retracting) (?:this|the|our) report\b",
    ),
    // Nothing seen when tried.
    p(
        CannotReproduce,
        r"\b(?:shows?|showed|see|saw|sees) (?P<cue>nothing either way|no difference either way|no change either way)\b",
    ),
    p(
        CannotReproduce,
        r"\b(?:regression|drop|slowdown|the (?:issue|problem)) (?P<cue>could not be reproduced|couldn't be reproduced|cannot be reproduced|can't be reproduced|was not reproducible|is not reproducible|isn't reproducible)\b",
    ),
    // The cost accepted.
    p(
        Declines,
        r"\b(?:i'm|i am|we're|we are) (?P<cue>fine keeping|fine accepting|fine living with|fine eating|happy to keep|happy to accept|happy to live with|ok keeping|ok living with) (?:a|the|this|that)\b",
    ),
    p(
        Declines,
        r"^(?:the )?(?P<cue>cost stays|loss stays|regression stays|slowdown stays)\b",
    ),
    p(
        Declines,
        r"\b(?:was|were|has been|have been|is) (?P<cue>judged acceptable|deemed acceptable|considered acceptable)\b",
    ),
    // The author of a diff says it is no fix: a pointer to where the cost
    // comes from, a debug aid, an experiment (what the link reads of a
    // reply with its own diff, `link::hints::disclaims_own_diff`). Not "not
    // a proper fix" or "not the final fix": a hack that restores the
    // numbers may still be what is applied. Not "just a pointer to": in
    // kernel mail that is C.
    neg(
        NotAFix,
        r"\b(?:patch|diff|change|hack|hunk|this|it|that)(?: {w})?(?: is| was|'s)? (?:{w} )?(?P<cue>not a fix|not meant as a fix|not intended as a fix|not meant to be a fix|not intended to be a fix|not supposed to be a fix|not a solution|not meant as a solution|not meant for merging|not for merging|not intended for merging|not for inclusion|not meant for inclusion|not meant to be merged|not meant to be applied)\b",
    ),
    p(
        NotAFix,
        r"\b(?:just|only|merely|purely|solely) (?:a |an |as a |as an )?(?:{w} )?(?P<cue>debug patch|debugging patch|debug hack|test patch|testing patch|diagnostic patch|debug aid|for debugging|experiment to)\b",
    ),
    neg(
        NotAFix,
        r"\b(?:i|we) (?:don't|do not|wouldn't|would not) (?P<cue>expect a lot of|expect much|expect any big|expect a big|expect a large|expect a significant) (?:{w} )?(?:difference|improvement|change|gain|effect|impact|win)\b",
    ),
    // Written on the misses of paraphrase set N (measured on set O).
    // A fix measured: now level with the parent, a share of the parent's
    // number regained, back to the level before the regression, the
    // regression no longer there with a fix (after a bare re-run that is
    // the report taken back), the loss all won back, no cost left, a loss
    // turned into a gain.
    p(
        ConfirmsFix,
        r"\bnow (?P<cue>on par with|level with|at par with|in line with|identical to|even with) (?:the )?(?:parent|base|baseline|original|unpatched|pre-regression|good)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>returns|returned|comes back|came back|goes back|went back|is back|are back|gets back|got back|recovers|recovered) to (?:about |around |roughly |nearly |almost )?[0-9.]+ ?% of (?:the )?(?:parent|base|baseline|original|good)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>restor)(?:e|es|ed|ing)? (?:{w} ){0,5}to (?:the |its |their )?(?:pre-regression|original|previous|earlier|old|baseline|parent's|pre-patch|pre-commit|prior|former) (?:level|levels|numbers|values|performance|throughput|score|scores|result|results)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?:equals|equal to|matches|matching|reaches|reached|is at|are at|back at) (?:the |its |their )?(?P<cue>original level|original levels|pre-regression level|pre-regression levels|previous level|previous levels|parent's level|baseline level|old level)\b",
    ),
    neg(
        ConfirmsFix,
        r"\b(?:with|after|applying|applied) (?:the |your |this |that |his |her |their )?(?:{w} )?(?:fix|fixup|patch|diff|respin|series|revert|v[0-9]+)\b[^.;]{0,80}\b(?:regression|regressions|drop|slowdown|degradation|loss)(?: {w}){0,3} (?P<cue>no longer exists|no longer exist|is no longer there|are no longer there|is no longer visible|are no longer visible|is no longer present|no longer shows up|no longer show up)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>recovers|recovered|regains|regained|restores|restored|wins back|won back|gets back|got back) (?:everything|all|all of what|whatever|what)(?: that)? (?:was |we |it |had been |the commit )?(?:lost|dropped|gave up)\b",
    ),
    neg(
        ConfirmsFix,
        r"\bno (?:measurable |visible |noticeable |significant |more )?(?:cost|overhead|regression|slowdown|drop|degradation|penalty|loss) (?P<cue>anymore|any more|any longer)\b",
    ),
    p(
        ConfirmsFix,
        r"\b(?P<cue>went from|goes from|moved from|changed from|improved from|going from) -[0-9.]+ ?% to (?:\+[0-9.]+|0(?:\.[0-9]+)?|-0\.[0-9]+) ?%",
    ),
    // Not reproduced: the speaker's runs with and without the commit, or
    // of both kernels, come out the same; no dip seen.
    neg(
        CannotReproduce,
        r"\b(?P<cue>with and without) (?:the |this |that |your |my |his |her )?(?:{w} )?(?:patch|commit|change|series|revert)\b[^.;]{0,80}\b(?:identical|the same|indistinguishable|no difference|no regression|no change|no drop|no slowdown|within [0-9.]+ ?%)",
    ),
    p(
        CannotReproduce,
        r"\b(?:with|on|using) (?P<cue>both kernels|the two kernels|both builds|both trees)\b[^.;]{0,40}[,;:]? (?:and )?(?:there's |there is |i see |we see |saw )?(?:no (?:regression|difference|drop|slowdown|change)|nothing)(?: {w}){0,2} (?:visible|measurable|noticeable|at all|whatsoever)\b",
    ),
    neg(
        CannotReproduce,
        r"\b(?:didn't|did not|don't|do not|haven't|have not|never) (?:see|saw|seen|notice|noticed|observe|observed|spot|spotted) (?:any|a) (?P<cue>dip|dent|blip)\b",
    ),
    // Disputed: the two kernels measured under different conditions.
    neg(
        Disputes,
        r"\b(?:numbers|results|runs|kernels|measurements|data)(?: {w})? (?:simply |just |really )?(?P<cue>aren't comparable|are not comparable|weren't comparable|were not comparable|are incomparable|aren't directly comparable|are not directly comparable)\b",
    ),
    // Noise: a change smaller than the spread means nothing statistically.
    neg(
        Noise,
        r"\b(?:doesn't|does not|don't|do not) (?:really )?mean (?:anything|much) (?P<cue>statistically)\b",
    ),
    neg(
        Noise,
        r"\b(?P<cue>statistically) (?:insignificant|meaningless|irrelevant|not significant|indistinguishable)\b",
    ),
    // Layout: a link order or a structure's layout moved.
    p(
        Layout,
        r"\b(?:different|changed|new|another) (?P<cue>link order|linking order|link-order)\b",
    ),
    p(
        Layout,
        r"\b(?:struct |structure )?[[:word:]]+ (?P<cue>layout) (?:shifting|shifted|moving|moved|changing|reshuffle|reshuffling)\b",
    ),
    // A report taken back: "this report should be dropped".
    p(
        Withdraws,
        r"\b(?:this|the|our) (?:regression |performance )?(?P<cue>report should be dropped|report should be ignored|report should be disregarded|report should be withdrawn|report can be dropped|report needs to be dropped)\b",
    ),
    // A fix promised: someone else working on it, the next respin to carry
    // it, a patch at hand to be sent.
    p(
        WillFix,
        r"\b(?:is|are) (?:already |currently |now )?(?P<cue>working on a fix|working on a patch|working on the fix|working on a version|working on a new version|working on a respin)\b",
    ),
    p(
        WillFix,
        r"\b(?:i'm|i am|we're|we are) (?:{w} )?(?P<cue>working on a version|working on a new version|working on a respin|working on a v[0-9]|working on v[0-9])",
    ),
    p(
        WillFix,
        r"\b(?:i'll|i will|we'll|we will) (?:{w} ){1,9}in the (?P<cue>next respin|next version|next revision|next spin|next iteration|next posting)\b",
    ),
    p(
        WillFix,
        r"\b(?:i|we) have a (?:{w} )?patch (?:lying around|sitting around|in my tree|locally|somewhere) (?:that|which) (?P<cue>fixes|addresses|removes|avoids)\b",
    ),
    // A revert under way, said in the present.
    p(
        WillRevert,
        r"\b(?P<cue>i'm reverting|i am reverting|we're reverting|we are reverting) (?:the|this|that|it|commit|[0-9a-f]{7,40})\b",
    ),
    // Set aside by its author: the next version not pursued, the series
    // pulled from consideration.
    neg(
        SetsAside,
        r"\b(?:i|we)(?:'ll| will)? (?:won't|will not|am not going to|'m not going to|don't plan to|do not plan to) (?P<cue>pursue|continue with|work on) (?:a |the )?(?:v[0-9]+|next version|new version|another version|respin|follow-up version)\b",
    ),
    p(
        SetsAside,
        r"\b(?:pull|pulling|withdraw|withdrawing|remove|removing|take|taking) (?:the|this|my|our) (?:{w} )?(?:patchset|patch set|series|patch|patches|rfc) (?:out )?(?P<cue>from consideration|out of consideration)\b",
    ),
    // Code layout, said bare.
    p(
        Layout,
        r"^(?P<cue>cache ?line (?:shift|movement|alignment|placement)|alignment (?:shift|change)|code layout)(?: change| effect)?[.!]?(?: not the code[.!]?)?$",
    ),
];

/// What the robot's team names as the fault of a report it takes back
/// ("please disregard; the baseline used another gcc"): `{setup_fault}`.
const SETUP_FAULT: &str = r"(?:baseline|base kernel|setup|set-up|environment|test machine|test box|testbox|compiler|gcc|clang|kconfig|kernel config|bios|firmware|microcode|rerun|re-run|measured|measurement|mistake in our|mistake in the setup|our mistake|our side|our test|should not have been sent)";

/// The shared parts of the patterns.
fn expand(pattern: &str) -> String {
    pattern
        .replace("{w}", r"[[:word:]'-]+")
        .replace(
            "{thing}",
            r"(?:regression|slowdown|slow-down|drop|degradation|cost|overhead|hit|penalty|loss|behaviou?r|result|difference|impact|change)",
        )
        .replace("{setup_fault}", SETUP_FAULT)
        .replace(r"\b", r"(?-u:\b)")
}

/// The phrases' regexes, in [`PHRASES`] order, each compiled the first
/// time a sentence holds its cue: compiling the whole book takes about
/// 0.1 s, which a reply or two read by an update should not pay.
/// They are byte regexes without Unicode classes: the sentences are
/// matched as lower-cased bytes, and a `[^.]` of Unicode would compile to
/// an automaton of every code point.
static COMPILED: [OnceLock<regex::bytes::Regex>; PHRASES.len()] =
    [const { OnceLock::new() }; PHRASES.len()];

/// Phrase `i` of [`PHRASES`] with its compiled regex.
fn compiled(i: usize) -> Option<(Phrase, &'static regex::bytes::Regex)> {
    let ph = *PHRASES.get(i)?;
    let re = COMPILED.get(i)?.get_or_init(|| {
        regex::bytes::RegexBuilder::new(&expand(ph.pattern))
            .unicode(false)
            .build()
            .expect("valid phrase")
    });
    Some((ph, re))
}

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

/// Words that make a statement a guess.
static HEDGE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:probably|likely|maybe|perhaps|possibly|might|may|seems?|seemed|appears?|appeared|not sure|i guess|i suspect|presumably|could be|suspect|wonder|unclear|not clear)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Words after a statement that limit it to the speaker's own set-up ("the
/// regression was gone, at least on my system"): a guess about the
/// report's.
static SCOPED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:at least (?:on|for|with|in) (?:my|our|this|me)|at least here|(?:on|for) (?:my|our) (?:\w+ )?(?:system|machine|box|setup|set-up|laptop|desktop|test ?box|config)s? at least|works for me)(?-u:\b)",
    )
    .expect("valid regex")
});

/// "Cannot possibly": emphasis, not a hedge.
static EMPHATIC: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?:n't|(?-u:\b)not|(?-u:\b)cannot) possibly(?-u:\b)").expect("valid regex")
});

/// Whether `text` holds a hedge ([`HEDGE`]) other than an emphatic "not
/// possibly".
fn hedged(text: &str) -> bool {
    HEDGE.is_match(text) && HEDGE.is_match(&EMPHATIC.replace_all(text, " "))
}

/// Words that deny what follows.
static NEGATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:not|never|no longer|hardly|neither|nor|without|nobody|no one|noone)(?-u:\b)|n't(?-u:\b)",
    )
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

/// A request put as a question, after an optional addressee ("Jens, can
/// you drop the patch from your branch?").
static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[[:word:]-]+, )?(?:can|could|would|will) you (?:please |kindly |just )?(?:drop|revert|back out|remove)(?-u:\b)",
    )
    .expect("valid regex")
});

/// A denied saying ("I didn't mean to suggest", "nobody is saying"): what
/// follows it in its clause is not said.
static DENIED_SAYING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?:n't|(?-u:\b)not|(?-u:\b)never|(?-u:\b)nobody|(?-u:\b)no one)(?: [[:word:]'-]+){0,3} (?:suggest|suggests|suggested|suggesting|say|says|said|saying|mean|meant|claim|claims|claimed|claiming|imply|implies|implied|implying|argue|argues|argued|arguing|think|believe|dismiss|dismissed|brush|brushed|write|written|wave|waved|treat|treated|call|called|consider|considered|chalk|chalked)(?-u:\b)",
    )
    .expect("valid regex")
});

/// Words doubting what follows them in a clause ("I doubt this is noise").
static DOUBTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:doubt|not sure|unsure|not convinced|wonder|wondering|no idea)(?-u:\b)")
        .expect("valid regex")
});

/// A denial right after a phrase's words ("layout effects don't usually
/// give you 15%").
static DENIED_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^ (?:[[:word:]'-]+ )?(?:don't|doesn't|didn't|isn't|aren't|wasn't|won't|can't|cannot|do not|does not|did not|is not|are not|was not|would not|wouldn't|rarely|seldom|never)(?-u:\b)",
    )
    .expect("valid regex")
});

/// The setting of an experiment just before a phrase's words ("built with
/// a different function alignment").
static EXPERIMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)with (?:a |an )?(?:different|other|another|changed|modified|forced)(?-u:\b)",
    )
    .expect("valid regex")
});

/// After a decline: "the regression is expected to go away" promises a fix.
static DECLINE_CANCEL_AFTER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^ to (?:be fixed|be resolved|go away|disappear|recover|improve|be addressed|change)",
    )
    .expect("valid regex")
});

/// A decision put off ("I'm not going to revert anything until we know
/// what is going on", "... without understanding it first"): not a
/// decline. Not a bare "without first": "we can't add the flag without
/// first fixing shmem" keeps the change as it is.
static FOR_NOW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:until|till|unless|before we know|yet|without understanding|without knowing)(?-u:\b)",
    )
    .expect("valid regex")
});

/// A revert tested to check the bisect ("with the commit reverted the
/// regression goes away, so the bisect looks correct"): no fix confirmed.
static BISECT_UPHELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:bisect|bisection|bisecting)(?: result)? (?:looks|is|seems|was|appears) (?:correct|right|valid|good|accurate|sound)(?-u:\b)",
    )
    .expect("valid regex")
});

/// A share of a recovery: "wins back part of the loss", "partially restores
/// the throughput", "recovers some of it". Said of a fix, it confirms
/// nothing (a table that shows it is `partly-restores`).
static PARTIAL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?-u:\b)(?:part of|partly|partially|partial|some of|half of|a bit of|a little of|a fraction of|a portion of|a third of|a quarter of)(?-u:\b)",
    )
    .expect("valid regex")
});

/// The first `n` words after byte `at` of `s`.
fn words_after(s: &str, at: usize, n: usize) -> String {
    let tail = s.get(at..).unwrap_or("");
    tail.split_whitespace()
        .take(n)
        .collect::<Vec<_>>()
        .join(" ")
}

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

/// `text` as the phrases read it: lower case, curly apostrophes straight.
fn lowered(text: &str) -> String {
    text.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'")
}

/// What a sentence says (lower-case text expected): every phrase that
/// matches and stands in its place. A question says nothing; neither does a
/// phrase inside a condition ("if this is expected, ..."), nor one denied
/// by a negation before it ("I don't think this is acceptable"). A hedge
/// before it or in it makes it tentative.
pub fn read(sentence: &str) -> Vec<Found> {
    let lower = lowered(sentence);
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
        // "If it's easy to test, that would be nice, but I don't expect a
        // lot of difference": what follows the condition's ", but" is said,
        // not supposed.
        return match conceded(s) {
            Some(at) => read_lowered(
                &s[at..],
                keys.into_iter()
                    .filter(|&(start, _)| start >= at)
                    .map(|(start, key)| (start - at, key))
                    .collect::<Vec<_>>(),
            ),
            None => Vec::new(),
        };
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

/// Where the clause after ", but " begins in a lower-cased sentence that
/// opens with a condition (`None` for any other sentence, or a question,
/// which a clause after ", but" does not make a statement).
fn conceded(s: &str) -> Option<usize> {
    if !CONDITION_FIRST.is_match(s.trim_start()) || is_question(s) {
        return None;
    }
    s.find(", but ").map(|i| i + ", but ".len())
}

/// Whether a sentence (in any case) says nothing whatever phrases it holds:
/// a question, or a sentence opening with a condition.
pub fn says_nothing_of(s: &str) -> bool {
    says_nothing(&s.to_lowercase())
}

/// Whether lower-cased sentence `s` says nothing whatever phrases it
/// holds: a question, or a sentence opening with a condition, which
/// supposes all it says ("if this is real, the regression is expected").
fn says_nothing(s: &str) -> bool {
    is_question(s) || CONDITION_FIRST.is_match(s.trim_start())
}

/// Whether lower-cased sentence `s` asks: it ends with a question mark
/// (before closing brackets and quotes), unless it is a request put as a
/// question ("can you drop the patch?"), which asks for a decision.
fn is_question(s: &str) -> bool {
    let trimmed =
        s.trim_end_matches(|c: char| c == ')' || c == '"' || c == '\'' || c.is_whitespace());
    trimmed.ends_with('?') && !REQUEST.is_match(s.trim_start())
}

/// What the phrases `which` (indexes into [`PHRASES`], ascending) find in
/// sentence `s` (see [`read_lowered`], which passes those whose cue the
/// sentence holds: no other can match).
fn read_phrases(s: &str, which: Vec<usize>) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    for (ph, re) in which.into_iter().filter_map(compiled) {
        for m in re.find_iter(s.as_bytes()) {
            let matched = s.get(m.range()).unwrap_or("");
            let from = clause_start(s, m.start());
            let clause_head = s.get(from..m.start()).unwrap_or("");
            if CONDITION.is_match(clause_head) || DENIED_SAYING.is_match(clause_head) {
                continue;
            }
            if !ph.negative {
                let before = words_before(s, m.start(), 3);
                if NEGATION.is_match(matched) || NEGATION.is_match(&before) {
                    continue;
                }
            }
            let after = s.get(m.end()..).unwrap_or("");
            // Noise or layout doubted ("I doubt this is noise", "not sure
            // whether this is a layout issue"), denied after its words
            // ("layout effects don't usually give you 15%"), or the
            // setting of an experiment ("tried building with a different
            // function alignment"): no verdict.
            if matches!(ph.kind, Noise | Layout)
                && (DOUBTED.is_match(clause_head)
                    || DENIED_AFTER.is_match(after)
                    || EXPERIMENT.is_match(&words_before(s, m.start(), 4)))
            {
                continue;
            }
            if ph.kind == Declines
                && (DECLINE_CANCEL_AFTER.is_match(after) || FOR_NOW.is_match(after))
            {
                continue;
            }
            if ph.kind == ConfirmsFix && BISECT_UPHELD.is_match(s) {
                continue;
            }
            if ph.kind == ConfirmsFix
                && (PARTIAL.is_match(matched)
                    || PARTIAL.is_match(&words_before(s, m.start(), 3))
                    || PARTIAL.is_match(&words_after(s, m.end(), 4)))
            {
                continue;
            }
            let before = words_before(s, m.start(), 6);
            let tentative = ph.tentative
                || (ph.kind == CannotReproduce && before.contains("should be"))
                || hedged(matched)
                || hedged(&before)
                || SCOPED.is_match(after);
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
    let plain = |k: SignalKind| out.iter().any(|f| f.kind == k && !f.tentative);
    // A report taken back ("re-ran it, the regression is gone: a false
    // alarm") confirms no fix; a series set aside because of its cost
    // ("not pursuing this, it's not worth the regression") is dropped,
    // not kept at that cost.
    let withdrawn = read_kind(Withdraws);
    let set_aside = plain(SetsAside);
    let declines = read_kind(Declines);
    let disputes = [Disputes, CannotReproduce, Noise, Layout, Withdraws]
        .into_iter()
        .any(read_kind);
    // A report taken back with a reason of the report's own ("within the
    // noise once thermal throttling kicks in", "built with different
    // compilers, the comparison is invalid") says that reason.
    let reason = [Disputes, Noise, Layout].into_iter().any(plain);
    // A fix measured "within the noise" of the parent is a fix that works,
    // not a report of noise; a revert decided because the commit "is not
    // worth the trouble" is a revert, not a cost accepted.
    let confirmed = plain(ConfirmsFix);
    let reverted = plain(WillRevert);
    out.retain(|f| match f.kind {
        MaybeDeclines => !declines && !reverted,
        MaybeDisputes => !disputes && !confirmed,
        ConfirmsFix => !withdrawn,
        Withdraws => !reason,
        Declines => !set_aside && !reverted,
        Noise => !confirmed,
        _ => true,
    });
    out
}

/// What a reply's answer to a question it quotes says: "> Is this
/// expected?" answered "Yes." declines as "this is expected" would; "> Do
/// you plan to address it?" answered "Not really." declines; "> Is this a
/// real regression?" answered "No." disputes. Each entry: the question's
/// words, what a yes says, what a no says.
const QUESTIONS: &[(&str, Option<SignalKind>, Option<SignalKind>)] = &[
    (
        r"\b(?:expected|intended|intentional|by design|deliberate|on purpose|acceptable|trade-?off|worth it|the price)\b",
        Some(Declines),
        None,
    ),
    (
        r"\b(?:noise|noisy|variance|run-to-run|fluctuat\w*|jitter|flaky)\b",
        Some(Noise),
        None,
    ),
    (
        r"\b(?:layout|alignment|placement|cache ?line)\b",
        Some(Layout),
        None,
    ),
    (
        r"\b(?:bisect\w*|commit)\b.*\b(?:wrong|off|bogus|incorrect|innocent)\b",
        Some(Disputes),
        None,
    ),
    (
        r"\b(?:real|genuine|actual|true) (?:regression|problem|issue|slowdown)\b",
        None,
        Some(Disputes),
    ),
    (
        r"\b(?:could|can|does|did|would|might)\b.*\b(?:explain|cause|be responsible|be the culprit|be the cause)\b",
        None,
        Some(Disputes),
    ),
    (
        r"^(?:so |and |ok,? |then )?(?:should|shall|can|could|may|do|would|will) (?:i|we|you)\b.*(?:\b(?:revert|back out|back it out)\b|\bdrop (?:it|this|that|the (?:patch|commit|change|series)|this (?:patch|commit|change|series))\b)",
        Some(WillRevert),
        None,
    ),
    (
        r"\b(?:plan|planning|going|intend|want|will you|would you|could you|can you|willing)\b.*\b(?:fix|address|look into|work on|do something about)\b",
        Some(WillFix),
        Some(Declines),
    ),
    (
        r"\b(?:able to|can you|could you|did you|do you|have you)\b.*\b(?:reproduce|repro|see it|see the regression|see this)\b",
        None,
        Some(CannotReproduce),
    ),
    (
        r"^(?:so |and |but |then )?(?:does|did|do|has|have|is|was|were) (?:the|this|that|your|my|his|her|it|v[0-9]+)\b.*\b(?:fix|patch|change|debug|revert)\b.*\b(?:help|helps|work|works|fix it|fix this|restore|recover|make a difference)\b",
        Some(ConfirmsFix),
        None,
    ),
    (
        r"\b(?:check|test|try|confirm|verify|see)\b[^?]*\b(?:if|whether) (?:the|this|that|your|my|it|v[0-9]+)\b(?:[^?]*)\b(?:fix|fixes|fixed|helps|help|restores|recovers)\b",
        Some(ConfirmsFix),
        None,
    ),
];

/// An answer's first words: yes, or no.
static ANSWER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:(?P<not>it doesn't|it does not|it didn't|it did not|that didn't|that did not)|(?P<sure>pretty sure|quite sure|fairly sure|i'm pretty sure|i'm quite sure|i'm fairly sure|i am pretty sure|i am quite sure)|(?P<yes>it does|it did|it helps|it helped|that did it|it works|that works|yes|yeah|yep|yup|sure|of course|certainly|will do|indeed|correct|exactly|absolutely|definitely|afraid so|i'm afraid so|i think so|i believe so|probably|likely|most likely|almost certainly|very likely|please do|do that|go ahead|agreed|that's right|right)|(?P<no>no|nope|nah|not really|not at all|not that i know|unlikely|not likely|i doubt it|doubt it|hardly))(?-u:\b)",
    )
    .expect("valid regex")
});

/// Words of a question asking for a test to be run.
static TEST_REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?-u:\b)(?:test|testing|try|run|rerun|re-run|check|measure|verify|bisect)(?-u:\b)")
        .expect("valid regex")
});

/// A question's words, compiled, with what a yes and a no to it say.
type QuestionKind = (Regex, Option<SignalKind>, Option<SignalKind>);

/// [`QUESTIONS`], compiled.
static QUESTION_KINDS: LazyLock<Vec<QuestionKind>> = LazyLock::new(|| {
    QUESTIONS
        .iter()
        .map(|(re, yes, no)| (Regex::new(re).expect("valid question"), *yes, *no))
        .collect()
});

/// What `answer` (a reply's first sentence below the quoted `question`)
/// says by answering it, if the question asks one of the questions the
/// phrase book knows (`QUESTIONS`) and the
/// answer opens with a yes or a no. A hedged answer ("probably", "I think
/// so") is tentative.
pub fn answered(question: &str, answer: &str) -> Option<Found> {
    let q = question.trim();
    if !q.ends_with('?') {
        return None;
    }
    let a = lowered(answer.trim_start());
    let caps = ANSWER.captures(&a)?;
    // "Pretty sure it is" says yes; "pretty sure it isn't" says no.
    let yes = caps.name("yes").is_some()
        || caps.name("sure").is_some_and(|m| {
            let rest = a.get(m.end()..).unwrap_or("");
            let clause = rest.split(['.', ';', ',']).next().unwrap_or("");
            !NEGATION.is_match(clause)
        });
    let q = lowered(q);
    // A question asking for a test ("could you try it with the revert?")
    // is answered by doing it, not by deciding.
    let asks_a_test = TEST_REQUEST.is_match(&q);
    let kind = QUESTION_KINDS.iter().find_map(|(re, on_yes, on_no)| {
        let about_a_test = *on_yes == Some(ConfirmsFix) || *on_no == Some(CannotReproduce);
        if (asks_a_test && !about_a_test) || !re.is_match(&q) {
            return None;
        }
        if yes { *on_yes } else { *on_no }
    })?;
    let tentative = hedged(&a);
    Some(Found { kind, tentative })
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

    /// Each sentence is read as its kind, sure or tentative as given.
    fn assert_reads(cases: &[(&str, SignalKind, bool)]) {
        for &(s, k, tentative) in cases {
            let got = kinds(s);
            assert!(got.contains(&(k, tentative)), "{s:?}: {got:?}");
        }
    }

    /// No sentence is read as a sure decision.
    fn assert_decides_nothing(sentences: &[&str]) {
        for s in sentences {
            assert!(!kinds(s).iter().any(|f| !f.1), "{s:?}: {:?}", kinds(s));
        }
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
        for _ in 0..5000 {
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
        assert!(found > 400, "{found}");
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
            // Written on paraphrase sets E and F.
            ("Not tuning it for one stressor.", Declines, false),
            ("That is the cost of not losing wakeups.", Declines, false),
            (
                "We traded some throughput in exchange for latency.",
                Declines,
                false,
            ),
            (
                "I'd rather not special-case this benchmark.",
                Declines,
                false,
            ),
            ("I don't think it's worth chasing.", Declines, false),
            ("I'd keep the change as it is.", Declines, false),
            (
                "It is the flip side of the scatter-gather gain.",
                Declines,
                false,
            ),
            ("Known, and by design.", Declines, false),
            ("So this stays as is.", Declines, false),
            ("Being faster but wrong is not an option.", Declines, false),
            ("Meh.", Declines, true),
            (
                "It can't possibly move the numbers that much.",
                Disputes,
                false,
            ),
            ("There is no way this patch causes it.", Disputes, false),
            ("Looks like a bisection artefact.", Disputes, false),
            ("I'm not buying this one.", Disputes, false),
            (
                "The base kernel already contained the patch.",
                Disputes,
                false,
            ),
            (
                "A comment-only change that slows fork down, sure.",
                Disputes,
                false,
            ),
            (
                "The driver is never even loaded on that box.",
                Disputes,
                true,
            ),
            ("It only runs at mount time.", Disputes, true),
            ("Not seeing it here.", CannotReproduce, false),
            (
                "Ran it twice, no difference at all.",
                CannotReproduce,
                false,
            ),
            ("We got identical numbers.", CannotReproduce, false),
            ("It's just variance.", Noise, false),
            (
                "The delta is smaller than the spread of the base runs.",
                Noise,
                false,
            ),
            ("Smells like an alignment thing.", Layout, false),
            ("Please consider this report withdrawn.", Withdraws, false),
            ("Please disregard this report.", Withdraws, false),
            ("Will spin a v2 without the atomic.", WillFix, false),
            (
                "The v2 (to be posted shortly) will address this.",
                WillFix,
                false,
            ),
            (
                "This will be fixed in the next version of the series.",
                WillFix,
                false,
            ),
            ("Patch tomorrow.", WillFix, false),
            ("I'll look into restoring the batching.", WillFix, false),
            ("I'm simply going to revert that commit.", WillRevert, false),
            (
                "I've removed the patch from the next branch.",
                WillRevert,
                false,
            ),
            ("Reverted in sched/urgent.", WillRevert, false),
            ("The series isn't going to be merged.", SetsAside, false),
            ("We settled on a different design.", SetsAside, false),
            ("I'm withdrawing v3.", SetsAside, false),
            (
                "With the one-liner the regression goes away.",
                ConfirmsFix,
                false,
            ),
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
            (
                "Okay, I just sent v2 version of my fixes.",
                Superseded,
                true,
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
    fn a_share_of_a_recovery_confirms_no_fix() {
        for s in [
            "The regression is partially recovered by applying your patch.",
            "I moved the count to its own cache line, which wins back part of the loss.",
            "It partly restores the performance.",
            "The patch restores the throughput, partially.",
            "This recovers about half of the regression.",
        ] {
            assert!(
                !kinds(s).iter().any(|(k, _)| *k == ConfirmsFix),
                "{s}: {:?}",
                kinds(s)
            );
        }
        for s in [
            "It restores most of the lost performance.",
            "The regression is gone with the patch.",
        ] {
            assert!(kinds(s).iter().any(|(k, _)| *k == ConfirmsFix), "{s}");
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
            "Unrelated, but the noisy WARN there should go too.",
            "The cacheline alignment attribute has been there for years.",
            "Please ignore this patch, I sent the wrong file.",
            "I'm going to drop the length limit in v6.",
            "I don't buy that it's noise.",
            "Fair enough.",
            "CONFIG_XFS_FS=m stays as it is.",
            "With the section moved back, the regression is restored.",
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
    fn a_next_version_promised_only_when_said() {
        for s in [
            "Will the v2 address this?",
            "I don't think v2 will fix it.",
            "The v2 won't address this.",
            "The next version will add the documentation.",
            "The new version will fix the typo in the changelog.",
        ] {
            let got = kinds(s);
            let promises = got
                .iter()
                .any(|(k, tentative)| *k == WillFix && !*tentative);
            assert!(!promises, "{s:?}: {got:?}");
        }
    }

    #[test]
    fn the_families_written_on_sets_h_and_i_read_their_sentences() {
        let cases: &[(&str, SignalKind, bool)] = &[
            (
                "Please disregard; the base kernel was built with another config.",
                Withdraws,
                false,
            ),
            (
                "No, please ignore it, there was a mistake in our setup.",
                Withdraws,
                false,
            ),
            (
                "We are withdrawing this regression report.",
                Withdraws,
                false,
            ),
            ("That report was sent by mistake, sorry.", Withdraws, false),
            (
                "With the patch the throughput recovers to the parent's level.",
                ConfirmsFix,
                false,
            ),
            ("IOPS are back with your fix.", ConfirmsFix, false),
            ("A patch is on its way.", WillFix, false),
            (
                "I'll rework the lookup and send a fix this week.",
                WillFix,
                false,
            ),
            ("We'll cook up a patch for it.", WillFix, false),
            (
                "Reverting, this is not worth 10% for a cleanup.",
                WillRevert,
                false,
            ),
            (
                "Dropping the commit from for-next for now.",
                WillRevert,
                false,
            ),
            ("I agree to revert it.", WillRevert, false),
            ("I've abandoned this series.", SetsAside, false),
            ("Not merging this one.", SetsAside, false),
            (
                "The numbers from a KASAN kernel say nothing about the patch.",
                Disputes,
                false,
            ),
            ("Please don't blame the patch for that.", Disputes, false),
            (
                "The hot spots are nowhere near anything I touched.",
                Disputes,
                false,
            ),
            ("Same results on both kernels here.", CannotReproduce, false),
            ("It's thermal jitter.", Noise, false),
            ("We're keeping the check.", Declines, false),
            ("It costs what it costs.", Declines, false),
            ("Intended.", Declines, false),
        ];
        assert_reads(cases);
        assert_decides_nothing(&[
            "We'll collect the perf data and send it.",
            "Please ignore this patch, I attached the wrong file.",
            "Reverting it on top of mainline gives the 5% back.",
            "Is it intended?",
            "If we keep the check, the regression stays.",
        ]);
    }

    #[test]
    fn the_families_written_on_sets_j_and_k_read_their_sentences() {
        let cases: &[(&str, SignalKind, bool)] = &[
            (
                "I'm not reverting a locking fix over one hackbench figure.",
                Declines,
                false,
            ),
            (
                "We talked it over and decided it was worth it.",
                Declines,
                false,
            ),
            ("Not fixing.", Declines, false),
            (
                "This is the known and accepted cost of the new default.",
                Declines,
                false,
            ),
            (
                "This is intended behaviour with the new flush.",
                Declines,
                false,
            ),
            ("Happy to take that trade.", Declines, false),
            (
                "The parent and the commit were built with different compilers.",
                Disputes,
                false,
            ),
            ("Look elsewhere.", Disputes, false),
            ("Can't be it.", Disputes, false),
            (
                "Whatever it is, it isn't coming from this commit.",
                Disputes,
                false,
            ),
            ("Aim7 is flat for me on both boxes.", CannotReproduce, false),
            ("There's no regression on my end.", CannotReproduce, false),
            (
                "That test swings by 5% between reboots on those hosts.",
                Noise,
                false,
            ),
            ("I wouldn't read anything into this.", Noise, false),
            ("So it's within measurement error.", Noise, false),
            (
                "v3 will keep the old lookup, which should take care of this.",
                WillFix,
                false,
            ),
            ("I'll prepare a fix tomorrow.", WillFix, false),
            ("Will fix in v2.", WillFix, false),
            ("Sure, will address it.", WillFix, false),
            ("Let me fix this properly.", WillFix, false),
            ("Will send a fixup on top shortly.", WillFix, false),
            ("This is getting reverted.", WillRevert, false),
            ("Revert it is.", WillRevert, false),
            ("Let's just revert my commit.", WillRevert, false),
            (
                "Dropped the series from mm-unstable for now.",
                SetsAside,
                false,
            ),
            ("Don't spend more time on this one.", SetsAside, false),
            (
                "It gets all of the lost throughput back.",
                ConfirmsFix,
                false,
            ),
            ("The fix works.", ConfirmsFix, false),
            ("Throughput recovers completely.", ConfirmsFix, false),
            (
                "The score is restored to the parent's level.",
                ConfirmsFix,
                false,
            ),
            ("The follow-up resolves the regression.", ConfirmsFix, false),
        ];
        assert_reads(cases);
        assert_decides_nothing(&[
            // A decision put off.
            "I'm not going to revert anything until we know more.",
            // A revert tested to check the bisect.
            "With the commit reverted the regression goes away, so the bisect looks correct.",
            // An expectation, not a measurement.
            "The cache state should be the same for both kernels.",
            // Review talk and the robot team's own tooling.
            "We will address them one by one.",
            "Dropped v1 from the queue and applied v2.",
            "The code is unchanged here.",
        ]);
        // A report taken back with the report's own fault says that fault.
        assert_eq!(
            kinds("That's within the noise once thermal throttling kicks in."),
            vec![(Noise, false)]
        );
    }

    #[test]
    fn the_families_written_on_set_l_read_their_sentences() {
        let cases: &[(&str, SignalKind, bool)] = &[
            ("Gains elsewhere outweigh it, net win.", Declines, false),
            (
                "Slower forks, safer kernel, and that's fine by me.",
                Declines,
                false,
            ),
            (
                "A 40% gain from a comment change cannot be real.",
                Disputes,
                false,
            ),
            (
                "We don't see any regression with the job file on our Sapphire Rapids.",
                CannotReproduce,
                false,
            ),
            ("The delta is statistically insignificant.", Noise, false),
            (
                "The error bars of both kernels overlap completely.",
                Noise,
                false,
            ),
            ("Let's forget about this report, sorry.", Withdraws, false),
            (
                "The slowdown came from a cron job in our lab, not by the commit.",
                Withdraws,
                false,
            ),
            (
                "v2 will batch the flushes again, which should get this back.",
                WillFix,
                false,
            ),
            ("Let me cook something up.", WillFix, false),
            ("A patch should be on the list by Monday.", WillFix, false),
            ("Already on it.", WillFix, false),
            (
                "A patch to skip the barrier on x86 is in the works.",
                WillFix,
                false,
            ),
            ("The fix is simple enough.", WillFix, false),
            (
                "I'll send out a fix once it passes xfstests.",
                WillFix,
                false,
            ),
            (
                "The commit has been dropped from the vfs tree, thanks.",
                WillRevert,
                false,
            ),
            ("We've backed it out of for-next.", WillRevert, false),
            (
                "A revert of that commit is now queued in tip.",
                WillRevert,
                false,
            ),
            (
                "I will revert the patch in the net tree.",
                WillRevert,
                false,
            ),
            ("Taking the series back for a redesign.", SetsAside, false),
            ("We won't continue with this approach.", SetsAside, false),
            ("Consider this RFC abandoned.", SetsAside, false),
            (
                "fsmark.files_per_sec recovers fully with it.",
                ConfirmsFix,
                false,
            ),
            (
                "With the fix applied, stress-ng.fork.ops is 1.2M again.",
                ConfirmsFix,
                false,
            ),
            (
                "Your follow-up brings it all the way back.",
                ConfirmsFix,
                false,
            ),
            (
                "We can confirm that the fixup restores the lost throughput.",
                ConfirmsFix,
                false,
            ),
            ("Chen's patch works on our side.", ConfirmsFix, false),
            (
                "Compared to the parent there is no difference anymore.",
                ConfirmsFix,
                false,
            ),
        ];
        assert_reads(cases);
        assert_decides_nothing(&[
            // Noise or layout doubted, denied after, or set up as a test.
            "I doubt that's noise given three reports.",
            "Layout changes rarely move it this much.",
            "We rebuilt with a different function alignment to check.",
            // A question.
            "Is the fix in the works?",
            // Not a result.
            "I don't see any point in reverting it.",
        ]);
        // Dropped for now sets aside.
        assert!(
            kinds("Dropped it from the tree for now, until we know more.")
                .contains(&(SetsAside, false))
        );
        // A fix within the noise of the parent is a fix, not noise.
        assert_eq!(
            kinds("With the fix applied the score matches the parent again, within the noise."),
            vec![(ConfirmsFix, false)]
        );
        // A revert because the commit is not worth the trouble is a revert.
        assert!(
            !kinds("I'll revert it in the pm tree, it is not worth the trouble.")
                .iter()
                .any(|k| k.0 == Declines)
        );
    }

    #[test]
    fn the_wider_families_read_their_sentences() {
        let cases: &[(&str, SignalKind, bool)] = &[
            (
                "The fix wins back the lost 6% on our box.",
                ConfirmsFix,
                false,
            ),
            (
                "Your patch gets rid of the regression here.",
                ConfirmsFix,
                false,
            ),
            (
                "With it applied the numbers are back to where they were.",
                ConfirmsFix,
                false,
            ),
            ("This isn't a real regression.", Disputes, false),
            (
                "A one-line comment change cannot cause a regression like that.",
                Disputes,
                false,
            ),
            (
                "I seriously doubt this patch is responsible.",
                Disputes,
                false,
            ),
            (
                "I find it hard to believe the rename did this.",
                Disputes,
                false,
            ),
            (
                "That smells like a benchmark artefact to me.",
                Disputes,
                false,
            ),
            ("The test never exercises this code path.", Disputes, true),
            (
                "We weren't able to reproduce the drop.",
                CannotReproduce,
                false,
            ),
            (
                "I couldn't get the slowdown to show up on my machines.",
                CannotReproduce,
                false,
            ),
            ("None of our machines show it.", CannotReproduce, false),
            (
                "The results are identical with and without the commit.",
                CannotReproduce,
                false,
            ),
            (
                "My runs show no measurable difference.",
                CannotReproduce,
                false,
            ),
            ("I'd put this down to measurement noise.", Noise, false),
            (
                "That is within the usual variation for this test.",
                Noise,
                false,
            ),
            ("The stddev here is larger than the change.", Noise, false),
            ("Looks like an alignment artefact.", Layout, false),
            (
                "The patch changed the alignment of the hot struct.",
                Layout,
                false,
            ),
            (
                "That is simply the cost of doing the flush correctly.",
                Declines,
                false,
            ),
            (
                "We traded some throughput for lower latency on purpose.",
                Declines,
                false,
            ),
            (
                "I'd rather take the hit than keep the racy fast path.",
                Declines,
                false,
            ),
            (
                "Losing 3% on this microbenchmark is acceptable.",
                Declines,
                false,
            ),
            ("This doesn't warrant any action from us.", Declines, false),
            (
                "Sorry, there was a problem in our test environment.",
                Withdraws,
                false,
            ),
            ("The box was misconfigured for that run.", Withdraws, false),
            ("We have retracted the report.", Withdraws, false),
            ("I'll send a follow-up to address this.", WillFix, false),
            ("A fix is on the way.", WillFix, false),
            ("Let me rework the patch.", WillFix, false),
            ("I'm going to revert it.", WillRevert, false),
            ("I'll post a revert later today.", WillRevert, false),
            ("Please drop this patch.", WillRevert, false),
            ("I've dropped the commit from my tree.", WillRevert, false),
            ("I'm withdrawing the patchset.", SetsAside, false),
            ("Let's shelve this for now.", SetsAside, false),
            ("The series won't go in this cycle.", SetsAside, false),
        ];
        assert_reads(cases);
        // A report taken back confirms no fix; a series set aside is not
        // kept at its cost; a denied saying says nothing.
        let got = kinds("We re-ran it and the regression is gone, a false alarm.");
        assert!(got.contains(&(Withdraws, false)) && !got.iter().any(|f| f.0 == ConfirmsFix));
        let got = kinds("I'm not going to pursue this series, it's not worth the regression.");
        assert!(got.contains(&(SetsAside, false)) && !got.iter().any(|f| f.0 == Declines));
        for s in [
            "I didn't mean to suggest the regression is acceptable.",
            "Nobody is suggesting we revert the whole series.",
            "I'm not saying it's noise.",
            "The expected value is stored in the header.",
            "We shouldn't write the regression off as acceptable.",
            "I don't think a 25% regression can be ignored.",
            "Dropping this from the fast path avoids the extra flush.",
            // Review talk that shares words with the families.
            "I will take that one.",
            "That works against the whole point of the header.",
            "There is no way I would ever accept this.",
            "Hard to believe that the removal was over ten years ago.",
            "Please remove this comment.",
            "Please pull this round of fixes.",
            "We can defer this until run-time.",
            "It cannot see that all users are fine with it.",
            "That leaves a silently misconfigured system.",
            "I doubt it would really happen.",
            "The output is byte-for-byte compatible with the old tool.",
            "To address this, we introduce a new helper.",
            "It is an unstable feature.",
            "I removed it from the hot loop and reran.",
        ] {
            assert!(kinds(s).is_empty(), "{s:?}: {:?}", kinds(s));
        }
    }

    #[test]
    fn an_answer_says_what_it_answers() {
        let said = |q: &str, a: &str| answered(q, a).map(|f| (f.kind, f.tentative));
        assert_eq!(said("Is this expected?", "Yes."), Some((Declines, false)));
        assert_eq!(
            said(
                "Is this expected?",
                "Probably, the lock is taken twice now."
            ),
            Some((Declines, true))
        );
        assert_eq!(
            said("Could this be noise?", "Yeah, looks like it."),
            Some((Noise, false))
        );
        // "Cannot possibly" is emphasis in an answer too, not a hedge.
        assert_eq!(
            said(
                "Is this a real regression?",
                "No, the patch cannot possibly cause it."
            ),
            Some((Disputes, false))
        );
        assert_eq!(
            said(
                "Is this a real regression?",
                "No, the old code skipped the flush."
            ),
            Some((Disputes, false))
        );
        assert_eq!(
            said(
                "Do you plan to address it?",
                "Not really, it is the price of the fix."
            ),
            Some((Declines, false))
        );
        assert_eq!(
            said("Should I just send a revert?", "Yes, do that."),
            Some((WillRevert, false))
        );
        assert_eq!(
            said("Does the patch help?", "Yes, the numbers are back."),
            Some((ConfirmsFix, false))
        );
        assert_eq!(
            said(
                "Were you able to reproduce it?",
                "No, both kernels are the same here."
            ),
            Some((CannotReproduce, false))
        );
        // Not a question, no yes or no, a question asking for a test, or a
        // no to a question whose no decides nothing.
        assert_eq!(said("This is expected.", "Yes."), None);
        assert_eq!(said("Is this expected?", "Let me look."), None);
        assert_eq!(said("Could you test it with the revert?", "Yes."), None);
        assert_eq!(said("Is this expected?", "No."), None);
        assert_eq!(
            said("Could you drop the solved ones from the list?", "Yes."),
            None
        );
    }

    #[test]
    fn a_request_put_as_a_question_still_asks() {
        assert_eq!(
            kinds("Jens, can you drop the patch from your branch?"),
            vec![(WillRevert, false)]
        );
        assert!(kinds("Can you test the patch below?").is_empty());
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
        // Limited to the speaker's own machine after the statement.
        assert_eq!(
            kinds("With the patch the regression was gone, at least on my system."),
            vec![(ConfirmsFix, true)]
        );
        assert_eq!(
            kinds("With the patch the regression was gone on my test box at least."),
            vec![(ConfirmsFix, true)]
        );
        assert_eq!(
            kinds("With the patch the regression was gone."),
            vec![(ConfirmsFix, false)]
        );
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

    #[test]
    fn the_families_written_on_set_n_read_their_sentences_and_not_their_denials() {
        assert_reads(&[
            (
                "With v3 the score is now on par with the parent.",
                ConfirmsFix,
                false,
            ),
            (
                "Throughput returns to 99.1% of base with the fixup.",
                ConfirmsFix,
                false,
            ),
            (
                "Your diff restores the iops to pre-regression levels here.",
                ConfirmsFix,
                false,
            ),
            (
                "ops_per_sec is 4% up on the bad commit, which matches the original level.",
                ConfirmsFix,
                false,
            ),
            (
                "With the respin the slowdown no longer shows up.",
                ConfirmsFix,
                false,
            ),
            (
                "The second patch recovers everything that was lost.",
                ConfirmsFix,
                false,
            ),
            (
                "Now there is no measurable overhead anymore.",
                ConfirmsFix,
                false,
            ),
            (
                "fsmark went from -7.5% to +0.4% against the parent.",
                ConfirmsFix,
                false,
            ),
            (
                "I ran it with and without the commit, five runs each, and got the same numbers.",
                CannotReproduce,
                false,
            ),
            (
                "Ran fio on my box with both kernels, no regression visible at all.",
                CannotReproduce,
                false,
            ),
            (
                "Our nightly runs didn't see any dip after that merge.",
                CannotReproduce,
                false,
            ),
            (
                "One side booted with a debug config, so the numbers aren't comparable.",
                Disputes,
                false,
            ),
            (
                "With a 5% stddev on the parent, a 3% delta doesn't mean anything statistically.",
                Noise,
                false,
            ),
            ("That is statistically insignificant.", Noise, false),
            (
                "The Makefile change gave a different link order, nothing more.",
                Layout,
                false,
            ),
            (
                "It is the task_struct layout shifting again.",
                Layout,
                false,
            ),
            (
                "Sorry, this report should be dropped: the box ran a stale firmware.",
                Withdraws,
                false,
            ),
            (
                "Paolo is working on a fix for the extra lock round trip.",
                WillFix,
                false,
            ),
            (
                "I am working on a new version that only takes the lock when needed.",
                WillFix,
                false,
            ),
            (
                "I'll move the check out of the fast path in the next respin.",
                WillFix,
                false,
            ),
            (
                "I have a patch lying around that fixes this contention.",
                WillFix,
                false,
            ),
            (
                "We are reverting the commit in the fixes branch.",
                WillRevert,
                false,
            ),
            (
                "Given the numbers, I won't pursue a v3 of this.",
                SetsAside,
                false,
            ),
            (
                "Let me pull the series from consideration for now.",
                SetsAside,
                false,
            ),
        ]);
        assert_decides_nothing(&[
            // Denied, asked or merely supposed.
            "It is not on par with the parent yet, the now-merged fix only helps half.",
            "Does it now come back to 99% of base?",
            "If the regression no longer exists on -rc3, we can close it.",
            "I didn't try it with and without the patch yet.",
            "Nobody said the numbers aren't comparable.",
            "I'm not going to revert without understanding what's happening first.",
            "We re-ran it on a clean box and the regression no longer shows up.",
            "Is someone working on a fix?",
        ]);
    }

    #[test]
    fn an_author_saying_their_diff_is_no_fix_is_read_but_not_a_better_fix_or_a_denial() {
        assert_reads(&[
            (
                "This patch is not a fix - it is just a pointer to the kernel path.",
                NotAFix,
                false,
            ),
            (
                "The diff below is not meant as a fix, it only shows where the time goes.",
                NotAFix,
                false,
            ),
            (
                "It's not for merging, only to test the theory.",
                NotAFix,
                false,
            ),
            ("This is only a debug patch.", NotAFix, false),
            ("JUST FOR DEBUGGING", NotAFix, false),
            (
                "I don't expect a lot of difference from aligning the counter.",
                NotAFix,
                false,
            ),
            // The clause after a condition's ", but" is said.
            (
                "If it's easy to test such a diff, that would be nice, but I don't expect a lot of difference.",
                NotAFix,
                false,
            ),
        ]);
        for s in [
            // A hack that may well be what is applied.
            "This is not a proper fix, but it restores the numbers.",
            // A denial of the disclaimer.
            "This is not just a debug patch, it is the fix.",
            // A question.
            "Is this not a fix?",
            // An experiment promised to help.
            "I expect a big difference with this one.",
            // C.
            "The handle is just a pointer to the queue.",
            // The condition's own clause is supposed, and a question asks.
            "If this is only a debug patch, fine, but does it help?",
            "If this patch is not a fix, what is it?",
        ] {
            assert!(
                !kinds(s).iter().any(|k| k.0 == NotAFix),
                "{s:?}: {:?}",
                kinds(s)
            );
        }
    }
}
