/**
 * A generated big asset file (as a map's XML or a large generated mod file is): one AssetDeclaration
 * with includes, defines, `units` GameObjects (each with nested modules, references to weapons and to
 * each other, an xi:include, a comment, CDATA, entities and CRLF line ends) and their weapons. About 620
 * characters per unit. Tests of stepped parsing use it: every kind of construct falls on a step boundary.
 */

/**
 * The document's text.
 * @example bigDocument(2000).length > 1_000_000 // true
 */
export function bigDocument(units: number): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="utf-8"?>\r\n',
    '<AssetDeclaration xmlns="uri:ea.com:eala:asset" xmlns:xi="http://www.w3.org/2001/XInclude">\r\n',
    "  <Includes>\r\n",
    '    <Include type="all" source="Includes/Weapons.xml"/>\r\n',
    '    <Include type="instance" source="DATA:Includes/Armor.xml"/>\r\n',
    "  </Includes>\r\n",
    '  <Defines><Define name="BIG_HP" value="200"/><Define name="BIG_RANGE" value="150.5"/></Defines>\r\n',
  ];
  for (let i = 0; i < units; i++) {
    out.push(
      `  <!-- unit ${i}: generated -->\r\n`,
      `  <GameObject id="Unit${i}" inheritFrom="${i === 0 ? "BaseUnit" : `Unit${i - 1}`}" Side="Allies"` +
        ` EditorName="Unit ${i} &amp; co" KindOf="SELECTABLE CAN_ATTACK">\r\n`,
      `    <Body><ActiveBody MaxHealth="=$BIG_HP * ${i % 7}" ArmorSet="Armor${i % 13}"/></Body>\r\n`,
      `    <WeaponSetUpdate><WeaponSlotHardpoint ID="1"><Weapon Ordering="PRIMARY_WEAPON" Template="Gun${i}"/>` +
        `</WeaponSlotHardpoint></WeaponSetUpdate>\r\n`,
      `    <Description><![CDATA[ <Unit ${i}> & more ]]></Description>\r\n`,
      `    <xi:include href="DATA:Includes/Fragment${i % 5}.xml" xpointer="xmlns(n=uri:ea.com:eala:asset) ` +
        `xpointer(/n:Behaviors/child::*)"/>\r\n`,
      `    <DisplayName>Unit &lt;${i}&gt; text &#x41;&#66;</DisplayName>\r\n`,
      "  </GameObject>\r\n",
      `  <WeaponTemplate id="Gun${i}" AttackRange="$BIG_RANGE" ProjectileTemplate="Unit${(i * 7) % units}"/>\r\n`,
    );
  }
  out.push("</AssetDeclaration>\r\n");
  return out.join("");
}
