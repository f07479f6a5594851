/**
 * Word lists for the synthetic registries. Real domain nouns come first in the keyword pool;
 * the rest of the pool is generated jargon (product names, codenames, internal terms), which is
 * what makes real catalogs' keywords specific to one or two groups.
 */

/** Domain nouns: keyword and description material. */
export const DOMAIN_NOUNS =
  `invoice ledger payroll expense budget receipt refund payout subscription
billing forecast revenue margin audit compliance contract clause signature renewal lease tenant
mortgage loan credit debit deposit withdrawal portfolio dividend equity bond trade broker ticker
shipment parcel freight carrier warehouse inventory pallet barcode manifest customs tariff route
courier delivery pickup dispatch fleet vehicle mileage fuel tire garage appointment calendar agenda
meeting reminder deadline milestone sprint backlog ticket incident outage alert pager runbook
deployment rollback release pipeline build artifact container cluster node pod namespace secret
certificate domain firewall proxy gateway endpoint webhook queue topic stream partition replica
snapshot backup restore migration schema index query table column cursor transaction patient
diagnosis prescription dosage allergy symptom clinic referral insurance claim premium policy
underwriter adjuster vaccine pharmacy lab specimen biopsy scan radiology cardiology student course
lecture syllabus exam grade transcript enrollment tuition scholarship thesis campus dormitory
recipe ingredient pantry grocery menu reservation table waiter kitchen allergen calorie nutrition
workout stretch marathon cycling yoga heartbeat sleep hydration playlist album lyric podcast
episode subtitle trailer cinema concert venue festival ticketing seat itinerary flight airport
boarding luggage passport visa hotel hostel checkin checkout rental cruise excursion museum
gallery exhibit artwork sculpture auction bid lot appraisal catalog listing buyer seller cart
coupon discount voucher loyalty points wishlist review rating complaint warranty repair technician
thermostat sensor lighting camera doorbell sprinkler irrigation solar battery inverter meter
outlet appliance vacuum recipe garden seedling fertilizer harvest orchard vineyard livestock
tractor greenhouse weather forecast humidity rainfall pollen earthquake wildfire evacuation
shelter donation volunteer fundraiser grant nonprofit petition ballot election candidate
precinct census permit zoning inspection license registry deed parcel survey blueprint
architect contractor invoice estimate quote proposal lead prospect opportunity pipeline deal
account contact campaign newsletter subscriber unsubscribe segment persona funnel conversion
impression click keyword advert banner influencer sponsorship affiliate commission royalty
manuscript chapter draft editor publisher isbn bookshelf library loan overdue fine author
translation glossary locale dialect transcript caption dictation summary headline article
newsroom byline editorial comment thread moderator spam report flag ban appeal avatar profile
password token session login signup invite role permission group member owner admin tenant
workspace folder document spreadsheet slide presentation whiteboard sticky diagram template
signature notary witness affidavit subpoena lawsuit verdict hearing docket attorney paralegal
retainer invoice timesheet overtime shift roster leave vacation sabbatical payslip pension
benefit onboarding offboarding interview candidate recruiter vacancy resume reference badge
locker visitor parking elevator maintenance janitor cleaning laundry uniform supply vendor
procurement requisition purchase order tender bid quotation shipment tracking return exchange
robot drone satellite telescope orbit launch rocket payload telemetry firmware bootloader
kernel driver patch hotfix vulnerability exploit scanner antivirus quarantine encryption key
vault wallet blockchain ledger token mint stake validator oracle bridge swap liquidity pool`
    .split(/\s+/)
    .filter((word, index, all) => word !== '' && all.indexOf(word) === index);

/** Verbs for tool names and descriptions (create_invoice, list_shipments...). */
export const VERBS =
  `get list create update delete cancel approve reject archive restore search find
export import sync schedule assign submit publish upload download send share merge split tag
rename move copy lock unlock close reopen renew refund verify validate estimate compare summarize
translate convert generate preview notify remind track monitor pause resume retry`
    .split(/\s+/)
    .filter((word) => word !== '');

/** Everyday words for the rest of a message (stopwords and chat filler included). */
export const FILLER = `please can you i need to the a an my our for with from about this that
it on in at by and or but so then now today tomorrow yesterday next last week month morning
afternoon quickly again also just really want would like help me show tell check see make sure
team boss client friend colleague new old all some any every few more less first second final
important urgent small big latest recent usual same other what when where which who how why
before after during between up down over under there here yes thanks ok well maybe soon later
think know look keep put take give call ask work home office project plan idea note list time`
  .split(/\s+/)
  .filter((word) => word !== '');

/** Property names of tool input schemas. */
export const FIELDS = `id name title description status priority owner assignee due_date start_date
end_date created_after created_before limit offset page cursor sort_by order query filter tags
amount currency quantity unit price total notes email phone address city country postal_code
timezone language format include_archived dry_run reason comment url path region category type
label color size weight duration version branch environment`
  .split(/\s+/)
  .filter((word) => word !== '');

const ONSETS =
  'b br c cl cr d dr f fl g gr h j k kl l m n p pl pr qu r s sc sk st str t tr v w z'.split(' ');
const VOWELS = 'a e i o u ai ea io ou y'.split(' ');
const CODAS = ' n r l m s x nd rt ck ll nt rn sk'.split(' ');

/** `count` distinct jargon words (`quorvex`, `brailind`...) from `random`, none a domain noun. */
export function generateJargon(count, random, taken = new Set()) {
  const words = [];
  const seen = new Set(taken);
  while (words.length < count) {
    const syllables = 2 + Math.floor(random() * 2);
    let word = '';
    for (let index = 0; index < syllables; index++) {
      word += pick(ONSETS, random) + pick(VOWELS, random);
    }
    word += pick(CODAS, random);
    if (word.length < 5 || word.length > 12 || seen.has(word)) continue;
    seen.add(word);
    words.push(word);
  }
  return words;
}

/** A uniformly chosen element. */
export function pick(list, random) {
  return list[Math.floor(random() * list.length)];
}
