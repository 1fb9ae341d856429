/** `ssh-keygen -e -m PKCS8 -f ssh-rsa.pub`: the fixture RSA key as a PEM `PUBLIC KEY`. */
export const rsaSpki = `-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA2L2dzBIvaz9l3CexbcHE
Jm1MSzhV3OdwJBwalZ+iyOsTsG0PO+UfHudurDbJHYW5nN+UAf5CslKA0DxR+vpV
3pobMiGaMgJ74u1U3e58JrRIK8L0kNQHywZN/QA6JmfY62tvy38VGj2QbjssyNEa
m2ZeZne/vlDkZdbiSoCMeDbWF2jFtBUGrEw+UYbPanRgiVwxWlrg+OzL89aCnSG7
PhlzMbcgW7dVYz5SeZXO9Dwiqgs+6s/9j/w4ZKKiGiCDXm3Ci8aBNAJABTa/cKKa
LhtPvhODWp5Kwfg3CpcS1jW7p+IemOO8kTiM81vWEsPccDE4jgzG7sSUOlsXYqwA
SwIDAQAB
-----END PUBLIC KEY-----
`;
/** `ssh-keygen -e -m PEM -f ssh-rsa.pub`: the same key as a PKCS#1 `RSA PUBLIC KEY`. */
export const rsaPkcs1 = `-----BEGIN RSA PUBLIC KEY-----
MIIBCgKCAQEA2L2dzBIvaz9l3CexbcHEJm1MSzhV3OdwJBwalZ+iyOsTsG0PO+Uf
HudurDbJHYW5nN+UAf5CslKA0DxR+vpV3pobMiGaMgJ74u1U3e58JrRIK8L0kNQH
ywZN/QA6JmfY62tvy38VGj2QbjssyNEam2ZeZne/vlDkZdbiSoCMeDbWF2jFtBUG
rEw+UYbPanRgiVwxWlrg+OzL89aCnSG7PhlzMbcgW7dVYz5SeZXO9Dwiqgs+6s/9
j/w4ZKKiGiCDXm3Ci8aBNAJABTa/cKKaLhtPvhODWp5Kwfg3CpcS1jW7p+IemOO8
kTiM81vWEsPccDE4jgzG7sSUOlsXYqwASwIDAQAB
-----END RSA PUBLIC KEY-----
`;
