/** The column layout of CMS's NPPES V2 file, as far as the synthetic file (./generate-nppes.ts) fills it. */

export const NPPES_COLUMN_COUNT = 330;
const TAXONOMY_SLOTS = 15;

/** The column positions {@link resolveColumns} finds. */
export type NppesColumns = ReturnType<typeof resolveColumns>;

/** Column positions, resolved once from the header by name, so a layout change fails loudly. */
export function resolveColumns(header: readonly string[]) {
  const at = (name: string): number => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`nppes_fileheader_v2.csv has no column ${JSON.stringify(name)}`);
    return i;
  };
  const slots = (f: (n: number) => string): number[] => Array.from({ length: TAXONOMY_SLOTS }, (_, i) => at(f(i + 1)));
  return {
    npi: at('NPI'),
    entityType: at('Entity Type Code'),
    ein: at('Employer Identification Number (EIN)'),
    orgName: at('Provider Organization Name (Legal Business Name)'),
    lastName: at('Provider Last Name (Legal Name)'),
    firstName: at('Provider First Name'),
    middleName: at('Provider Middle Name'),
    prefix: at('Provider Name Prefix Text'),
    suffix: at('Provider Name Suffix Text'),
    credential: at('Provider Credential Text'),
    otherOrgName: at('Provider Other Organization Name'),
    otherOrgNameType: at('Provider Other Organization Name Type Code'),
    otherLastName: at('Provider Other Last Name'),
    otherFirstName: at('Provider Other First Name'),
    otherLastNameType: at('Provider Other Last Name Type Code'),
    mail1: at('Provider First Line Business Mailing Address'),
    mailCity: at('Provider Business Mailing Address City Name'),
    mailState: at('Provider Business Mailing Address State Name'),
    mailZip: at('Provider Business Mailing Address Postal Code'),
    mailCountry: at('Provider Business Mailing Address Country Code (If outside U.S.)'),
    mailPhone: at('Provider Business Mailing Address Telephone Number'),
    mailFax: at('Provider Business Mailing Address Fax Number'),
    practice1: at('Provider First Line Business Practice Location Address'),
    practice2: at('Provider Second Line Business Practice Location Address'),
    practiceCity: at('Provider Business Practice Location Address City Name'),
    practiceState: at('Provider Business Practice Location Address State Name'),
    practiceZip: at('Provider Business Practice Location Address Postal Code'),
    practiceCountry: at('Provider Business Practice Location Address Country Code (If outside U.S.)'),
    practicePhone: at('Provider Business Practice Location Address Telephone Number'),
    practiceFax: at('Provider Business Practice Location Address Fax Number'),
    enumerationDate: at('Provider Enumeration Date'),
    lastUpdate: at('Last Update Date'),
    deactivationDate: at('NPI Deactivation Date'),
    reactivationDate: at('NPI Reactivation Date'),
    sex: at('Provider Sex Code'),
    aoLast: at('Authorized Official Last Name'),
    aoFirst: at('Authorized Official First Name'),
    aoMiddle: at('Authorized Official Middle Name'),
    aoTitle: at('Authorized Official Title or Position'),
    aoPhone: at('Authorized Official Telephone Number'),
    taxonomy: slots((n) => `Healthcare Provider Taxonomy Code_${n}`),
    licenseNumber: slots((n) => `Provider License Number_${n}`),
    licenseState: slots((n) => `Provider License Number State Code_${n}`),
    primarySwitch: slots((n) => `Healthcare Provider Primary Taxonomy Switch_${n}`),
    otherId: at('Other Provider Identifier_1'),
    otherIdType: at('Other Provider Identifier Type Code_1'),
    otherIdState: at('Other Provider Identifier State_1'),
    otherIdIssuer: at('Other Provider Identifier Issuer_1'),
    soleProprietor: at('Is Sole Proprietor'),
    subpart: at('Is Organization Subpart'),
    parentLbn: at('Parent Organization LBN'),
    parentTin: at('Parent Organization TIN'),
    aoPrefix: at('Authorized Official Name Prefix Text'),
    aoCredential: at('Authorized Official Credential Text'),
    taxonomyGroup1: at('Healthcare Provider Taxonomy Group_1'),
    certificationDate: at('Certification Date'),
  };
}
